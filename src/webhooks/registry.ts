// name → loaded integration, built once at start-up (see loader.ts) and never changed after.
export interface IntegrationRegistry {
  get(name: string): unknown | undefined;
  names(): string[];
}

export function emptyRegistry(): IntegrationRegistry {
  return { get: () => undefined, names: () => [] };
}
