/**
 * Type-ahead for form pickers whose lists outgrow a static select: the
 * entries of one list matching what the person typed, newest first, at
 * most `limit`. Platform-neutral: a renderer turns them into options.
 */
import type { Image, Vessel } from '../api-shapes/resources.js';

/** What every named API object has that orders and labels it. */
interface Named {
  metadata: { name: string; createdTimestamp?: string | undefined };
  status?: { state?: string | undefined } | undefined;
}

/** The lists a picker can search. */
export type SuggestionSource = 'images' | 'vessels' | 'formations' | 'armadas' | 'armadasets';

/** One entry to offer: what it is called and what choosing it submits. */
export interface Suggestion {
  label: string;
  value: string;
}

/** An entry with what orders it. */
interface Entry extends Suggestion {
  created?: string | undefined;
  key: string;
}

/** "1.10.0" after "1.9.0": digit runs compare as numbers. */
const compareNumeric = new Intl.Collator('en', { numeric: true }).compare;

/** Newer first by creation time; entries without one after those with one, then by name (numerically, descending). */
function newestFirst(a: Entry, b: Entry): number {
  if (a.created !== b.created) {
    if (!a.created) return 1;
    if (!b.created) return -1;
    return a.created < b.created ? 1 : -1;
  }
  return compareNumeric(b.key, a.key);
}

function imageEntries(images: readonly Image[]): Entry[] {
  return images.map((i) => {
    const ref = `${i.spec.image}:${i.spec.tag}`;
    return { created: i.metadata.createdTimestamp, key: ref, label: ref, value: ref };
  });
}

function namedEntries(objects: readonly Named[]): Entry[] {
  return objects.map((v) => {
    const state = v.status?.state;
    const name = v.metadata.name;
    return {
      created: v.metadata.createdTimestamp,
      key: name,
      label: state ? `${name} (${state})` : name,
      value: name,
    };
  });
}

/**
 * The entries whose value contains `query` (case-insensitive), newest
 * first, one per value, at most `limit`.
 */
function pick(entries: Entry[], query: string, limit: number): Suggestion[] {
  const needle = query.trim().toLowerCase();
  const seen = new Set<string>();
  return entries
    .filter((e) => e.value.toLowerCase().includes(needle))
    .sort(newestFirst)
    .filter((e) => !seen.has(e.value) && seen.add(e.value))
    .slice(0, limit)
    .map(({ label, value }) => ({ label, value }));
}

/** Images as `image:tag` matching `query`, newest first. */
export function imageSuggestions(images: readonly Image[], query: string, limit: number): Suggestion[] {
  return pick(imageEntries(images), query, limit);
}

/** Named objects (formations, armadas, ArmadaSets) matching `query`, labelled with their state, newest first. */
export function namedSuggestions(objects: readonly Named[], query: string, limit: number): Suggestion[] {
  return pick(namedEntries(objects), query, limit);
}

/** Vessels matching `query`, labelled with their state, newest first. */
export function vesselSuggestions(vessels: readonly Vessel[], query: string, limit: number): Suggestion[] {
  return pick(namedEntries(vessels), query, limit);
}
