/** Small helpers for untyped JSON bodies. */

export type JsonObject = Record<string, unknown>;

/** True for a plain JSON object (not null, not an array). */
export function isRecord(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A deep copy, so stored objects never alias what callers hold. */
export function deepClone<T>(value: T): T {
  return structuredClone(value);
}

/** JSON with object keys sorted, so two equal objects built in different key orders compare equal. */
export function stableStringify(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (!isRecord(v)) return v;
    const sorted: JsonObject = {};
    for (const key of Object.keys(v).sort()) sorted[key] = v[key];
    return sorted;
  });
}

/** Values sorted by `metadata.name`, the order Kubernetes-style lists use. */
export function sortedByName<T extends { metadata: { name: string } }>(values: Iterable<T>): T[] {
  return [...values].sort((a, b) =>
    a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0,
  );
}
