/**
 * PATCH bodies: RFC 6902 JSON Patch (applied to a deep copy, all or nothing)
 * and RFC 7386 merge patch. The caller re-validates the result.
 */
import type { IncomingMessage } from 'node:http';
import type { Operation } from 'fast-json-patch';
import jsonpatch from 'fast-json-patch';
import { mediaType, parseJson, readBody } from './http-utils/body.js';
import { badRequest, SimError } from './http-utils/status.js';
import { deepClone, isRecord, type JsonObject } from './json.js';

const JSON_PATCH = 'application/json-patch+json';
const MERGE_PATCH = 'application/merge-patch+json';

/** Reads the PATCH body and returns a patched copy of `current`; 415/400/422 on problems. */
export async function patchedCopy(
  req: IncomingMessage,
  kind: string,
  current: JsonObject,
): Promise<JsonObject> {
  const type = mediaType(req);
  if (type !== JSON_PATCH && type !== MERGE_PATCH) {
    throw new SimError(
      415,
      'UnsupportedMediaType',
      `unsupported patch type "${type}": use ${JSON_PATCH} or ${MERGE_PATCH}`,
    );
  }
  const body = parseJson(await readBody(req));
  if (type === MERGE_PATCH) {
    if (!isRecord(body)) throw badRequest('a merge patch must be a JSON object');
    const merged = mergePatch(deepClone(current), body);
    return merged as JsonObject;
  }
  return applyJsonPatch(kind, current, body);
}

/** Applies RFC 6902 operations to a copy; any failure changes nothing and answers 422. */
export function applyJsonPatch(kind: string, current: JsonObject, operations: unknown): JsonObject {
  if (!Array.isArray(operations)) throw badRequest('a JSON Patch must be an array of operations');
  operations.forEach((op, i) => {
    if (!isRecord(op) || typeof op.op !== 'string' || typeof op.path !== 'string') {
      throw badRequest(`JSON Patch operation ${i} must be an object with string "op" and "path"`);
    }
  });
  const copy = deepClone(current);
  try {
    jsonpatch.applyPatch(copy, operations as Operation[], true, true);
  } catch (err) {
    // `copy` holds the operations before the failing one: the state that failing operation saw.
    throw patchError(kind, copy, err);
  }
  if (!isRecord(copy)) throw badRequest('the patch must leave an object');
  return copy;
}

function patchError(kind: string, seen: JsonObject, err: unknown): SimError {
  if (!(err instanceof jsonpatch.JsonPatchError)) throw err;
  const op = err.operation as { op?: string; path?: string; value?: unknown } | undefined;
  const where = `operation ${err.index ?? 0} (${op?.op ?? '?'} ${op?.path ?? '?'})`;
  let message: string;
  if (err.name === 'TEST_OPERATION_FAILED') {
    const actual = safePointer(seen, op?.path ?? '');
    message = `test failed at ${op?.path}: value is ${JSON.stringify(actual)}, expected ${JSON.stringify(op?.value)}`;
  } else if (err.name === 'OPERATION_PATH_UNRESOLVABLE') {
    message = `path ${op?.path} does not exist`;
  } else if (err.name === 'OPERATION_VALUE_OUT_OF_BOUNDS') {
    message = `index in ${op?.path} is out of bounds`;
  } else {
    message = err.message.split('\n')[0] ?? err.name;
  }
  return new SimError(422, 'Invalid', `${kind} patch ${where} failed: ${message}; nothing was changed`, {
    kind,
    causes: [{ field: op?.path ?? '', message }],
  });
}

function safePointer(doc: unknown, pointer: string): unknown {
  try {
    return jsonpatch.getValueByPointer(doc, pointer);
  } catch {
    return undefined;
  }
}

/** RFC 7386: objects merge recursively, null deletes, anything else replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isRecord(patch)) return deepClone(patch);
  const result: JsonObject = isRecord(target) ? target : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = mergePatch(result[key], value);
  }
  return result;
}
