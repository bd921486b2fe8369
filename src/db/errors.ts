// Driver error translation, so services see "already exists" and never ER_DUP_ENTRY/SQLITE_CONSTRAINT.
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; errno?: number };
  return (
    e?.code === "ER_DUP_ENTRY" || e?.code === "SQLITE_CONSTRAINT_UNIQUE" || e?.code === "SQLITE_CONSTRAINT_PRIMARYKEY"
  );
}
