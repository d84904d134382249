/**
 * `private_metadata` in and out. Anything Slack echoes back is untrusted, so
 * it is parsed with a schema; a string that is not our metadata is ignored.
 */
import { z } from 'zod';
import { FORM_KINDS, type FormKind } from '../../operations/index.js';
import type { ModalMetadata } from '../ids.js';

const ModalMetadataSchema = z.object({
  kind: z.enum(FORM_KINDS as [FormKind, ...FormKind[]]),
  channel: z.string().min(1),
  channelName: z.string().optional(),
  threadTs: z.string().optional(),
  releaseId: z.string().optional(),
  environment: z.string().optional(),
  formation: z.string().optional(),
  vessel: z.string().optional(),
  region: z.string().optional(),
  regionType: z.string().optional(),
  fleet: z.string().optional(),
  branch: z.string().optional(),
  image: z.string().optional(),
});

// Fails to compile when ModalMetadata gains or loses a field the schema does not know about.
type SameKeys<A, B> = [keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? true : false) : false;
const schemaMatchesType: SameKeys<z.infer<typeof ModalMetadataSchema>, ModalMetadata> = true;
void schemaMatchesType;

/** The JSON stored in a view's private_metadata. */
export function writeMetadata(meta: ModalMetadata): string {
  return JSON.stringify(meta);
}

/** Parses private_metadata back (zod); undefined when it is not ours. */
export function readMetadata(privateMetadata: string): ModalMetadata | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(privateMetadata);
  } catch {
    return undefined;
  }
  const parsed = ModalMetadataSchema.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}
