// Reading a value out of a payload by JSON pointer ("/alerts/0/status") or dotted path
// ("pull_request.head.ref"). Manifests may use either form.

export function readPath(value: unknown, path: string): unknown {
  const parts = path.startsWith("/")
    ? path
        .slice(1)
        .split("/")
        .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"))
    : path.split(".");
  let current: unknown = value;
  for (const part of parts) {
    if (current === null || typeof current !== "object") return undefined;
    if (!Object.prototype.hasOwnProperty.call(current, part)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/** The same path as a JSON pointer, for error messages. */
export function asPointer(path: string): string {
  if (path.startsWith("/")) return path;
  return (
    "/" +
    path
      .split(".")
      .map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1"))
      .join("/")
  );
}
