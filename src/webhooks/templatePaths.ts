// Template paths checked against the plugin's schema (CONTRACT.md item 9): every `{{path}}` a
// template reads must be declared in schema.json, so a typo such as `monitor.nmae` fails at load
// time, naming the template file, line and path, instead of rendering an empty string forever.
//
// Scopes follow the template: `#each` walks into array `items`, `#with` into the object, block
// params (`as |x|`) bind to those nodes; `$ref`s into the same file are followed; allOf/anyOf/oneOf
// branches are merged. A schema node with no `properties` (a free-form object) accepts any
// sub-path. Exempt: framework data (`@event`, `@options.x`…), `this`, `item`, helper names, and
// paths starting with a name the transform adds (manifest `transformOutputs`).
import Handlebars from "handlebars";

export type Schema = Record<string, unknown> | boolean;
/** Where a path may lead: some schema nodes (any of them may declare it), or anything. */
type Scope = { free: true } | { free: false; nodes: Schema[] };

const FREE: Scope = { free: true };

export interface PathProblem {
  line: number;
  path: string;
}

export interface PathCheckOptions {
  /** The root schema document (for `$ref`s). */
  root: Schema;
  /** The schema nodes the template's context may match (root plus the events' own schemas). */
  nodes: Schema[];
  /** Names that are helpers, not paths. */
  helpers: Set<string>;
  /** View names added by the transform: not checked. */
  transformOutputs: string[];
  /** Names the framework adds to every view (e.g. `item` with `each`). */
  frameworkNames?: string[];
}

const isObject = (s: Schema): s is Record<string, unknown> => typeof s === "object" && s !== null;

export function resolveRef(root: Schema, ref: string): Schema | undefined {
  if (!ref.startsWith("#")) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(1).split("/").filter(Boolean)) {
    const part = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node as Schema | undefined;
}

/** A node with its `$ref` followed and its allOf/anyOf/oneOf/then/else branches listed beside it. */
function expand(root: Schema, node: Schema, seen = new Set<Schema>()): Schema[] {
  if (!isObject(node) || seen.has(node)) return [node];
  seen.add(node);
  const out: Schema[] = [node];
  if (typeof node.$ref === "string") {
    const target = resolveRef(root, node.$ref);
    if (target !== undefined) out.push(...expand(root, target, seen));
  }
  for (const key of ["allOf", "anyOf", "oneOf"]) {
    const list = node[key];
    if (Array.isArray(list)) for (const branch of list) out.push(...expand(root, branch as Schema, seen));
  }
  for (const key of ["then", "else"]) if (node[key] !== undefined) out.push(...expand(root, node[key] as Schema, seen));
  return out;
}

/** True when nothing in these nodes restricts sub-paths (no `properties`, `items` or `$ref` anywhere). */
function isFreeForm(nodes: Schema[]): boolean {
  return nodes.every(
    (n) => !isObject(n) || (n.properties === undefined && n.items === undefined && n.prefixItems === undefined),
  );
}

/** One step down: property `key` (or an array index / `length`). Undefined when not declared. */
function step(root: Schema, scope: Scope, key: string): Scope | undefined {
  if (scope.free) return FREE;
  const nodes = scope.nodes.flatMap((n) => expand(root, n));
  if (nodes.some((n) => n === true) || isFreeForm(nodes)) return FREE;
  const next: Schema[] = [];
  for (const n of nodes) {
    if (!isObject(n)) continue;
    const props = n.properties as Record<string, Schema> | undefined;
    if (props && Object.prototype.hasOwnProperty.call(props, key)) next.push(props[key]);
    const patterns = n.patternProperties as Record<string, Schema> | undefined;
    for (const [pattern, sub] of Object.entries(patterns ?? {})) if (new RegExp(pattern, "u").test(key)) next.push(sub);
    if (isObject(n.additionalProperties as Schema)) next.push(n.additionalProperties as Schema);
    if (n.items !== undefined && /^\d+$/.test(key)) next.push(n.items as Schema);
    if (key === "length" && (n.items !== undefined || n.type === "string" || n.type === "array")) return FREE;
  }
  if (next.length === 0) return undefined;
  return { free: false, nodes: next };
}

/** The scope a dotted path (e.g. an event's `each`) leads to, or undefined when undeclared. */
export function scopeAt(root: Schema, nodes: Schema[], dotted: string): Schema[] | "free" | undefined {
  let scope: Scope | undefined = { free: false, nodes };
  for (const key of dotted.split(".")) {
    scope = step(root, scope, key);
    if (scope === undefined) return undefined;
  }
  const items = itemsOf(root, scope);
  return items.free ? "free" : items.nodes;
}

/** The scope inside `#each x`: the array's items (or a free scope when unknown). */
function itemsOf(root: Schema, scope: Scope): Scope {
  if (scope.free) return FREE;
  const items = scope.nodes
    .flatMap((n) => expand(root, n))
    .flatMap((n) => (isObject(n) && n.items !== undefined ? [n.items as Schema] : []));
  return items.length === 0 ? FREE : { free: false, nodes: items };
}

type Frame = { scope: Scope; bindings: Map<string, Scope> };
type Node = hbs.AST.Node & Record<string, unknown>;

/** Every undeclared path a template reads, with its line. */
export function checkTemplatePaths(source: string, options: PathCheckOptions): PathProblem[] {
  const { root, helpers } = options;
  const exempt = new Set([...options.transformOutputs, ...(options.frameworkNames ?? [])]);
  const problems: PathProblem[] = [];
  const seen = new Set<string>();

  /** Resolves a path expression in the frame stack; reports it when undeclared; returns its scope. */
  function resolve(path: hbs.AST.PathExpression, stack: Frame[]): Scope {
    if (path.data) return FREE;
    const parts = path.parts.map(String);
    const frame = stack[Math.max(0, stack.length - 1 - path.depth)];
    const bound = [...stack].reverse().find((f) => f.bindings.has(parts[0]));
    let scope: Scope | undefined;
    let rest = parts;
    if (bound && path.depth === 0) {
      scope = bound.bindings.get(parts[0])!;
      rest = parts.slice(1);
    } else {
      if (exempt.has(parts[0])) return FREE;
      scope = frame.scope;
    }
    for (const key of rest) {
      const next = step(root, scope, key);
      if (next === undefined) {
        const shown = path.original.replace(/^this\./, "");
        const id = `${path.loc.start.line}:${shown}`;
        if (!seen.has(id)) problems.push({ line: path.loc.start.line, path: shown });
        seen.add(id);
        return FREE;
      }
      scope = next;
    }
    return scope;
  }

  function expression(node: Node, stack: Frame[]): Scope {
    if (node.type === "PathExpression") return resolve(node as unknown as hbs.AST.PathExpression, stack);
    if (node.type === "SubExpression") {
      call(node, stack);
      return FREE;
    }
    return FREE; // literals
  }

  /** A helper call (or a bare path): check the arguments; the helper name itself is not a path. */
  function call(node: Node, stack: Frame[]): Scope {
    const path = node.path as hbs.AST.PathExpression;
    const params = node.params as Node[]; // always a list in the AST
    const hash = node.hash as hbs.AST.Hash | undefined;
    // (A literal or @data "name" is never a path to report, whatever the helper set says.)
    const isHelper = helpers.has(path.original);
    for (const p of params) expression(p, stack);
    for (const pair of hash?.pairs ?? []) expression(pair.value as unknown as Node, stack);
    if (isHelper || params.length > 0 || hash !== undefined) return FREE;
    return expression(path as unknown as Node, stack);
  }

  function program(node: hbs.AST.Program | undefined, stack: Frame[]): void {
    if (!node) return;
    for (const statement of node.body) visit(statement as Node, stack);
  }

  function visit(node: Node, stack: Frame[]): void {
    switch (node.type) {
      case "MustacheStatement":
        call(node, stack);
        return;
      case "BlockStatement": {
        const path = node.path as hbs.AST.PathExpression;
        const params = node.params as Node[]; // always a list in the AST
        const first = params.map((p) => expression(p, stack))[0] ?? FREE;
        for (const pair of (node.hash as hbs.AST.Hash | undefined)?.pairs ?? [])
          expression(pair.value as unknown as Node, stack);
        const body = node.program as hbs.AST.Program;
        const names = body.blockParams ?? [];
        let inner: Frame = stack[stack.length - 1];
        if (path.original === "each") {
          const items = itemsOf(root, first);
          // (Absent block params bind `undefined`, which no path part can be.)
          inner = {
            scope: items,
            bindings: new Map([
              [names[0], items],
              [names[1], FREE],
            ]),
          };
        } else if (path.original === "with") {
          inner = { scope: first, bindings: new Map([[names[0], first]]) };
        } else if (!helpers.has(path.original) && params.length === 0) {
          // `{{#section}}…{{/section}}` on a path: Handlebars iterates or enters it.
          const scope = expression(path as unknown as Node, stack);
          inner = { scope: itemsOrSelf(scope), bindings: new Map() };
        }
        program(body, inner === stack[stack.length - 1] ? stack : [...stack, inner]);
        program(node.inverse as hbs.AST.Program | undefined, stack);
        return;
      }
      case "PartialStatement":
      case "PartialBlockStatement":
        // A partial's context is set by its caller (hash arguments, a context parameter): only
        // the arguments are checked here.
        for (const p of node.params as Node[]) expression(p, stack);
        for (const pair of (node.hash as hbs.AST.Hash | undefined)?.pairs ?? [])
          expression(pair.value as unknown as Node, stack);
        return;
      default:
        return;
    }
  }

  function itemsOrSelf(scope: Scope): Scope {
    const items = itemsOf(root, scope);
    return items.free ? scope : items;
  }

  const ast = Handlebars.parse(source);
  program(ast, [{ scope: { free: false, nodes: options.nodes }, bindings: new Map() }]);
  return problems;
}
