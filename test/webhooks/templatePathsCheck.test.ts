// The template-path checker on its own (no plugin folder, no loader): which `{{paths}}` a template
// may read given a JSON schema, how scopes follow #each / #with / sections / block params, and how
// `$ref`s and allOf/anyOf/oneOf/then/else are followed. (Through the loader: templatePaths.test.ts.)
import {
  checkTemplatePaths,
  resolveRef,
  scopeAt,
  type PathCheckOptions,
  type Schema,
} from "../../src/webhooks/templatePaths";

const schema = {
  type: "object",
  properties: {
    monitor: { type: "object", properties: { name: { type: "string" }, url: { type: "string" } } },
    checks: { type: "array", items: { $ref: "#/$defs/check" } },
    extra: { type: "object" },
    kind: { type: "string" },
  },
  $defs: {
    check: { type: "object", properties: { label: { type: "string" }, ok: { type: "boolean" } } },
  },
};

const HELPERS = new Set(["if", "unless", "each", "with", "link", "concat", "length", "section"]);

function check(source: string, options: Partial<PathCheckOptions> = {}) {
  return checkTemplatePaths(source, {
    root: schema,
    nodes: [schema],
    helpers: HELPERS,
    transformOutputs: [],
    ...options,
  });
}

/** Just the paths reported, for templates on one line. */
const paths = (source: string, options: Partial<PathCheckOptions> = {}) => check(source, options).map((p) => p.path);

describe("resolveRef", () => {
  const root = {
    $defs: {
      "a b": { const: 1 },
      "a/b": { const: 2 },
      "a~b": { const: 3 },
      "~1": { const: 4 },
      off: false,
      empty: null,
    },
    list: [{ const: 5 }],
    kind: "string",
  };

  it("follows a same-document JSON pointer, decoding %-escapes and ~1 / ~0 (in that order)", () => {
    expect(resolveRef(root, "#/$defs/a%20b")).toEqual({ const: 1 });
    expect(resolveRef(root, "#/$defs/a~1b")).toEqual({ const: 2 });
    expect(resolveRef(root, "#/$defs/a~0b")).toEqual({ const: 3 });
    expect(resolveRef(root, "#/$defs/~01")).toEqual({ const: 4 });
    expect(resolveRef(root, "#/list/0")).toEqual({ const: 5 });
    expect(resolveRef(root, "#/$defs/off")).toBe(false);
  });

  it("'#' and '#/' are the root itself", () => {
    expect(resolveRef(root, "#")).toBe(root);
    expect(resolveRef(root, "#/")).toBe(root);
  });

  it("is undefined for another document, a missing key, or a step through a non-object", () => {
    expect(resolveRef(root, "other.json#/$defs/off")).toBeUndefined();
    expect(resolveRef(root, "/$defs/off")).toBeUndefined();
    expect(resolveRef(root, "#/$defs/nope")).toBeUndefined();
    expect(resolveRef(root, "#/kind/length")).toBeUndefined();
    expect(resolveRef(root, "#/$defs/empty/x")).toBeUndefined();
    expect(resolveRef(root, "#/$defs/off/x")).toBeUndefined();
  });
});

describe("scopeAt", () => {
  it("an array leads to its items' schema nodes", () => {
    expect(scopeAt(schema, [schema], "checks")).toEqual([{ $ref: "#/$defs/check" }]);
  });

  it("anything that is not a declared array is 'free'; an undeclared path is undefined", () => {
    expect(scopeAt(schema, [schema], "monitor")).toBe("free");
    expect(scopeAt(schema, [schema], "extra.x.y")).toBe("free");
    expect(scopeAt(schema, [schema], "monitor.nmae")).toBeUndefined();
    expect(scopeAt(schema, [schema], "nope.name")).toBeUndefined();
  });

  it("array items are reached by numeric index only, and `length` is free on arrays and strings", () => {
    expect(scopeAt(schema, [schema], "checks.0.label")).toBe("free");
    expect(scopeAt(schema, [schema], "checks.12.ok")).toBe("free");
    expect(scopeAt(schema, [schema], "checks.0.nope")).toBeUndefined();
    expect(scopeAt(schema, [schema], "checks.1a")).toBeUndefined();
    expect(scopeAt(schema, [schema], "checks.a1")).toBeUndefined();
    expect(scopeAt(schema, [schema], "monitor.0")).toBeUndefined();
    expect(scopeAt(schema, [{ items: { properties: { a: {} } } }], "length")).toBe("free");
    expect(scopeAt(schema, [schema], "checks.length")).toBe("free");
    const declared = { properties: { a: {} } };
    expect(scopeAt(schema, [declared, { type: "string" }], "length")).toBe("free");
    expect(scopeAt(schema, [declared, { type: "array" }], "length")).toBe("free");
    expect(scopeAt(schema, [declared, { type: "number" }], "length")).toBeUndefined();
    expect(scopeAt(schema, [declared], "toString")).toBeUndefined();
  });

  it("the array's items are listed from every node, through $ref and allOf", () => {
    const root = {
      properties: {
        list: { allOf: [{ items: { properties: { a: {} } } }, { $ref: "#/$defs/more" }] },
      },
      $defs: { more: { items: { properties: { b: {} } } } },
    };
    expect(scopeAt(root, [root], "list")).toEqual([{ properties: { a: {} } }, { properties: { b: {} } }]);
  });

  it("a node with no properties, items or prefixItems, or a `true` node, accepts any sub-path", () => {
    expect(scopeAt(schema, [{ type: "object" }], "anything.deep")).toBe("free");
    expect(scopeAt(schema, [true], "anything")).toBe("free");
    expect(scopeAt(schema, [{ properties: { a: {} } }, true], "anything")).toBe("free");
    expect(scopeAt(schema, [{ prefixItems: [{}] }], "x")).toBeUndefined();
    expect(scopeAt(schema, [{ items: {} }], "x")).toBeUndefined();
  });

  it("patternProperties (Unicode patterns) and object additionalProperties declare keys", () => {
    const node = {
      properties: { a: {} },
      patternProperties: { "^x-": { properties: { v: {} } }, "^\\p{Lu}": {} },
    };
    expect(scopeAt(schema, [node], "x-custom.v")).toBe("free");
    expect(scopeAt(schema, [node], "x-custom.w")).toBeUndefined();
    expect(scopeAt(schema, [node], "Émile")).toBe("free");
    expect(scopeAt(schema, [node], "p{Lu}")).toBeUndefined();
    expect(scopeAt(schema, [node], "y")).toBeUndefined();
    const open = { properties: { a: {} }, additionalProperties: { properties: { z: {} } } };
    expect(scopeAt(schema, [open], "anything.z")).toBe("free");
    expect(scopeAt(schema, [open], "anything.q")).toBeUndefined();
    expect(scopeAt(schema, [{ properties: { a: {} }, additionalProperties: true }], "b")).toBeUndefined();
  });

  it("follows $ref (also cyclic ones) and the allOf / anyOf / oneOf / then / else branches", () => {
    const root = {
      $ref: "#",
      properties: { a: {} },
      allOf: [{ properties: { all: {} } }, { $ref: "#/$defs/missing" }],
      anyOf: [{ properties: { any: {} } }],
      oneOf: [{ properties: { one: {} } }],
      if: { properties: { cond: {} } },
      then: { properties: { yes: {} } },
      else: { properties: { no: {} } },
      $defs: { tree: { properties: { child: { $ref: "#/$defs/tree" }, leaf: {} } } },
    };
    for (const key of ["a", "all", "any", "one", "yes", "no"]) expect(scopeAt(root, [root], key)).toBe("free");
    expect(scopeAt(root, [root], "cond")).toBeUndefined();
    expect(scopeAt(root, [root], "b")).toBeUndefined();
    const tree = resolveRef(root, "#/$defs/tree") as Schema;
    expect(scopeAt(root, [tree], "child.child.child.leaf")).toBe("free");
    expect(scopeAt(root, [tree], "child.child.nope")).toBeUndefined();
  });

  it("a $ref to null, beside declared nodes, restricts nothing itself", () => {
    const root = {
      $defs: { nil: null },
      properties: {
        a: { $ref: "#/$defs/nil" },
        b: { allOf: [{ properties: { x: {} } }, { $ref: "#/$defs/nil" }] },
      },
    } as Schema;
    expect(scopeAt(root, [root], "a.anything")).toBe("free");
    expect(scopeAt(root, [root], "b.x")).toBe("free");
    expect(scopeAt(root, [root], "b.y")).toBeUndefined();
  });

  it("branches that are not lists are ignored", () => {
    const root = { properties: { a: {} }, allOf: { properties: { b: {} } } };
    expect(scopeAt(root, [root], "b")).toBeUndefined();
  });
});

describe("checkTemplatePaths", () => {
  it("reports each undeclared path with its line, once per line", () => {
    expect(check("{{monitor.name}}\n{{monitor.nmae}} {{monitor.nmae}}\n\n{{monitor.nmae}} {{kindd}}")).toEqual([
      { line: 2, path: "monitor.nmae" },
      { line: 4, path: "monitor.nmae" },
      { line: 4, path: "kindd" },
    ]);
  });

  it("shows `this.x` as `x`; `this` and `.` are the current scope", () => {
    expect(check("{{this.nope}} {{this}} {{.}} {{this.kind}}")).toEqual([{ line: 1, path: "nope" }]);
  });

  it("strips only a leading `this.` from the path it shows", () => {
    expect(paths("{{nothis.x}}")).toEqual(["nothis.x"]);
  });

  it("stops at the first undeclared step of a path", () => {
    expect(paths("{{nope.deeper.still}} {{monitor.name.x}}")).toEqual(["nope.deeper.still"]);
  });

  it("exempts data (@…), transform outputs and framework names, but not bound block params", () => {
    expect(paths("{{@index}} {{@options.x.y}} {{@root.nope}}")).toEqual([]);
    expect(paths("{{summary.text}} {{item.x}}", { transformOutputs: ["summary"], frameworkNames: ["item"] })).toEqual(
      [],
    );
    expect(paths("{{summary.text}} {{item.x}}", { transformOutputs: ["summary"] })).toEqual(["item.x"]);
    expect(paths("{{#each checks as |c|}}{{c.nope}}{{/each}}", { transformOutputs: ["c"] })).toEqual(["c.nope"]);
  });

  it("checks helper arguments, hash values and sub-expressions, not helper names or literals", () => {
    expect(
      paths("{{link monitor.url monitor.nope}} {{link text=monitor.nope2}} {{link (concat kind monitor.nope3) 'x' 1}}"),
    ).toEqual(["monitor.nope", "monitor.nope2", "monitor.nope3"]);
    expect(paths("{{link}} {{length checks}} {{unknownHelper 'x'}} {{unknownHelper a=1}}")).toEqual([]);
    expect(paths("{{link}}", { helpers: new Set() })).toEqual(["link"]);
  });

  it("#each enters the array's items; `../` goes back out; a second block param is the index", () => {
    expect(
      paths(
        "{{#each checks}}{{label}} {{ok}} {{nope}} {{../kind}} {{../label}}{{/each}}" +
          "{{#each checks as |c i|}}{{c.label}} {{c.nope2}} {{i.anything}} {{label}}{{/each}}",
      ),
    ).toEqual(["nope", "../label", "c.nope2"]);
  });

  it("`../` at the top stays at the top", () => {
    expect(paths("{{../kind}} {{../../monitor.name}} {{../nope}}")).toEqual(["../nope"]);
  });

  it("a block param is only reachable without `../`", () => {
    expect(paths("{{#each checks as |c|}}{{../c}}{{/each}}")).toEqual(["../c"]);
  });

  it("the innermost block param of a name wins", () => {
    expect(paths("{{#each checks as |x|}}{{#with ../monitor as |x|}}{{x.name}} {{x.label}}{{/with}}{{/each}}")).toEqual(
      ["x.label"],
    );
  });

  it("#with enters the object, with or without a block param", () => {
    expect(
      paths("{{#with monitor}}{{name}} {{nope}}{{/with}}{{#with monitor as |m|}}{{m.url}} {{m.nope2}}{{/with}}"),
    ).toEqual(["nope", "m.nope2"]);
  });

  it("#with binds only its first block param", () => {
    expect(paths("{{#with monitor as |m x|}}{{m.name}} {{x.name}}{{/with}}")).toEqual(["x.name"]);
  });

  it("#each / #with over something free or undeclared check nothing inside", () => {
    expect(paths("{{#each extra}}{{anything}}{{/each}}{{#with extra.x}}{{y}}{{/with}}")).toEqual([]);
    expect(paths("{{#each nope}}{{a}}{{/each}}{{#with nope2}}{{b}}{{/with}}")).toEqual(["nope", "nope2"]);
  });

  it("a section on a path enters its items (array) or itself (object), checking the path", () => {
    expect(
      paths(
        "{{#checks}}{{label}} {{nope}}{{/checks}}{{#monitor}}{{name}} {{nope2}}{{/monitor}}{{#nope3}}{{x}}{{/nope3}}",
      ),
    ).toEqual(["nope", "nope2", "nope3"]);
  });

  it("helper blocks keep the scope, check all their arguments, and do not add a `../` level", () => {
    expect(
      paths(
        "{{#if monitor}}{{name}}{{/if}}{{#section}}{{url}}{{/section}}{{#custom monitor monitor.nope x=monitor.nope2}}{{label}}{{/custom}}",
      ),
    ).toEqual(["name", "url", "monitor.nope", "monitor.nope2", "label"]);
    expect(paths("{{#each checks}}{{#if ok}}{{../monitor.name}} {{label}}{{/if}}{{/each}}")).toEqual([]);
  });

  it("an {{else}} block is checked in the enclosing scope", () => {
    expect(paths("{{#each checks}}{{label}}{{else}}{{kind}} {{label}}{{/each}}")).toEqual(["label"]);
  });

  it("partials: only their arguments are checked", () => {
    expect(paths("{{> card monitor.nope}} {{> card title=monitor.nope2}} {{> card monitor}}")).toEqual([
      "monitor.nope",
      "monitor.nope2",
    ]);
    expect(paths("{{#> layout monitor.nope x=monitor.nope2}}{{whatever}}{{/layout}}")).toEqual([
      "monitor.nope",
      "monitor.nope2",
    ]);
  });

  it("text and comments are not paths", () => {
    expect(paths("kind nope {{! nope }} {{!-- nope --}}")).toEqual([]);
  });

  it("any of the given nodes may declare a path", () => {
    const own = { properties: { reason: { type: "string" } } };
    expect(paths("{{reason}} {{kind}} {{other}}", { nodes: [schema, own] })).toEqual(["other"]);
  });
});
