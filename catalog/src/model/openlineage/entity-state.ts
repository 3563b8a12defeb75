// The stored aspects a plan reads, and what the openLineage aspect of one entity keeps: the key of
// the newest event that described it, and each kept facet with the key of the newest event giving it.
import { asRecord, type JsonRecord } from '../json.ts';
import { INTERPRETED_FACETS } from './events.ts';
import { maxKey, timeText } from './event-keys.ts';
import { num, sortedRecord, str } from './stored-values.ts';

/** The aspect the door keeps on every entity it describes: event keys, facets, merge state. */
export const OPENLINEAGE_ASPECT = 'openLineage';

/** A stored aspect the plan reads, by (urn, aspect). */
export type StoredAspects = ReadonlyMap<string, JsonRecord>;
export const stateKey = (urn: string, aspect: string) => `${urn}\u0000${aspect}`;

export interface EntityState {
  /** The key of the newest event that described the entity. */
  key: string | undefined;
  eventTime: number | undefined;
  facets: JsonRecord;
  /** Per facet, the key of the newest event that gave it. */
  facetKeys: Record<string, string>;
  stored: JsonRecord;
}

export function entityState(state: StoredAspects, urn: string): EntityState {
  const v = state.get(stateKey(urn, OPENLINEAGE_ASPECT)) ?? {};
  const eventTime = num(v.eventTime);
  const facetKeys: Record<string, string> = {};
  // Written before event keys: times only, older than any keyed event of the same time.
  for (const [k, t] of Object.entries(asRecord(v.facetTimes) ?? {})) if (num(t) !== undefined) facetKeys[k] = timeText(num(t)!);
  for (const [k, key] of Object.entries(asRecord(v.facetKeys) ?? {})) if (typeof key === 'string') facetKeys[k] = key;
  return {
    key: str(v.eventKey) ?? (eventTime !== undefined ? timeText(eventTime) : undefined),
    eventTime,
    facets: asRecord(v.facets) ?? {},
    facetKeys,
    stored: v,
  };
}

/** A run written before event keys: its run event gives the time and whether it ended. */
export function legacyRunKey(state: StoredAspects, runUrn: string): string | undefined {
  const v = state.get(stateKey(runUrn, 'dataProcessInstanceRunEvent'));
  const t = num(v?.timestampMillis);
  return t === undefined ? undefined : `${timeText(t)}.${v?.status === 'COMPLETE' ? 1 : 0}`;
}

/** Facets an event gives an entity that are kept verbatim: those not interpreted, and those that failed their schema. */
export function keptFacets(facets: JsonRecord, unread: JsonRecord | undefined, also: readonly string[] = []): JsonRecord {
  const out: JsonRecord = {};
  for (const [k, v] of Object.entries(facets))
    if (v !== undefined && v !== null && (!INTERPRETED_FACETS.has(k) || also.includes(k))) out[k] = v;
  return { ...out, ...(unread ?? {}) };
}

/**
 * The entity's openLineage aspect after this event: the newest key; each kept facet that of the
 * newest event giving it; `marks` are interpreted facets whose key alone is kept (their value lives
 * in the aspect they map to); `extra` the merge state of the caller.
 */
export function nextEntityState(
  s: EntityState,
  key: string,
  t: number,
  kept: JsonRecord,
  marks: readonly string[],
  extra: JsonRecord = {},
): JsonRecord {
  const facets: JsonRecord = { ...s.facets };
  const keys: Record<string, string> = { ...s.facetKeys };
  for (const [k, value] of Object.entries(kept)) {
    if (keys[k] !== undefined && keys[k] > key) continue;
    facets[k] = value;
    keys[k] = key;
  }
  for (const k of marks) keys[k] = maxKey(keys[k], key);
  const { facetTimes: _legacy, ...rest } = s.stored;
  return {
    ...rest,
    eventTime: Math.max(s.eventTime ?? t, t),
    eventKey: maxKey(s.key, key),
    facets: sortedRecord(facets),
    facetKeys: sortedRecord(keys),
    ...extra,
  };
}

/** Whether the event is the newest to give this facet (or the entity, for `undefined`). */
export const isNewest = (stored: string | undefined, key: string) => stored === undefined || key >= stored;
