/** Reading untyped JSON (Block Kit from the app, bodies from the page) without `any`. */

export type JsonObject = Record<string, unknown>;

/** True for any non-null object (arrays too, as `value?.key` reads them). */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null;
}

/** What `value?.[key]` reads from JSON: the field when `value` is an object, else undefined. */
export function field(value: unknown, key: string): unknown {
  return isObject(value) ? value[key] : undefined;
}
