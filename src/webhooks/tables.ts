// Checks for a manifest's lookup tables (`tables` in integration.json) and for the templates that
// read them with `{{table "name" key "field"}}`, run at start-up so a typo never reaches a delivery.
import Handlebars from "handlebars";
import type { Manifest } from "./manifest";

export interface TableProblem {
  /** JSON pointer into integration.json, or a template line. */
  where: string;
  what: string;
}

/** Every row of a table has the fields its first row has, no more and no fewer. */
export function checkTables(manifest: Manifest): TableProblem[] {
  const problems: TableProblem[] = [];
  for (const [name, rows] of Object.entries(manifest.tables ?? {})) {
    const [first, ...others] = Object.entries(rows);
    const fields = Object.keys(first[1]).sort();
    for (const [key, row] of others) {
      const own = Object.keys(row).sort();
      const missing = fields.filter((f) => !own.includes(f));
      const extra = own.filter((f) => !fields.includes(f));
      if (missing.length > 0 || extra.length > 0)
        problems.push({
          where: `/tables/${name}/${key}`,
          what:
            `${missing.length > 0 ? `has no ${missing.map((f) => `'${f}'`).join(", ")}` : ""}` +
            `${missing.length > 0 && extra.length > 0 ? " and " : ""}` +
            `${extra.length > 0 ? `has ${extra.map((f) => `'${f}'`).join(", ")} too` : ""}` +
            ` (every row of table '${name}' has the fields of its first row '${first[0]}': ${fields.join(", ")})`,
        });
    }
  }
  return problems;
}

type Node = {
  type?: string;
  path?: { original?: unknown };
  params?: Node[];
  value?: unknown;
  loc?: hbs.AST.SourceLocation;
};

/**
 * Each `table` call in a template: its table name must be a quoted name of a declared table, and
 * its field (when given) a quoted field of that table.
 */
export function checkTableUses(source: string, manifest: Manifest): TableProblem[] {
  let ast: hbs.AST.Program;
  try {
    ast = Handlebars.parse(source);
  } catch {
    return []; // the template compiler reports what does not parse
  }
  const tables = manifest.tables ?? {};
  const declared = Object.keys(tables);
  const problems: TableProblem[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== "object") return;
    const n = node as Node;
    if ((n.type === "MustacheStatement" || n.type === "SubExpression") && n.path?.original === "table") {
      const line = `line ${n.loc?.start.line ?? 1}`;
      const [name, key, field] = n.params ?? [];
      if (name?.type !== "StringLiteral" || key === undefined)
        problems.push({
          where: line,
          what: `{{table}} takes a quoted table name and a key: {{table "name" key "field"}}`,
        });
      else if (!Object.hasOwn(tables, String(name.value)))
        problems.push({
          where: line,
          what: `table '${String(name.value)}' is not declared in integration.json /tables (${declared.length > 0 ? `declared: ${declared.join(", ")}` : "it declares none"})`,
        });
      else if (field !== undefined) {
        const rows = Object.values(tables[String(name.value)]);
        const fields = Object.keys(rows[0]);
        if (field.type !== "StringLiteral")
          problems.push({
            where: line,
            what: `the field of table '${String(name.value)}' must be quoted: one of ${fields.join(", ")}`,
          });
        else if (!fields.includes(String(field.value)))
          problems.push({
            where: line,
            what: `table '${String(name.value)}' has no field '${String(field.value)}' (its fields: ${fields.join(", ")})`,
          });
      }
    }
    for (const [k, v] of Object.entries(n)) if (k !== "loc") visit(v);
  };
  visit(ast);
  return problems;
}
