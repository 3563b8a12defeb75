// An entity's recent lineage changes — who added or removed which edge, and when — read from the
// change log's LINEAGE events (docs/change-events.md §An entity's recent lineage changes). Only the
// events recorded about the entity are read: an edge is recorded on the entity whose aspect declared
// it, so a dataset shows its upstreams coming and going, and a job its inputs and outputs.
//
// When this catalog does not record lineage events (EVENTS_API_ENABLED=false, or EVENTS_TOPICS
// without PlatformEvent_v1) the answer says so: no list at all, never an empty one that would read
// as "nothing changed".
import { z } from 'zod';
import { decodeLineageChange, otherEndOf, PLATFORM_EVENT_TOPIC, type EventTopic } from '../model/change-events.ts';
import { badRequest } from '../model/errors.ts';
import { decodeChangeItem } from '../store/change-batches.ts';
import { int, type Store } from '../store/store.ts';

const RECENT_LINEAGE_CHANGES_DEFAULT = 20;
const RECENT_LINEAGE_CHANGES_MAX = 100;

export interface RecentLineageChange {
  /** The event's offset in the change log: larger is later. */
  offset: number;
  /** When the write was made (its auditStamp, epoch ms). */
  time: number;
  /** Who made it (a corpuser urn). */
  actor: string;
  operation: 'ADD' | 'REMOVE';
  /** Which side of the entity the other end is: UPSTREAM when it feeds the entity. */
  direction: 'UPSTREAM' | 'DOWNSTREAM';
  /** The other end of the edge (the event's modifier): an entity, or a column for column lineage. */
  other: string;
  relationshipType: string;
  aspectName: string;
  /** The query or job the edge went through, when the aspect named one. */
  via: string | null;
}

export type RecentLineageChanges = { recorded: true; changes: RecentLineageChange[]; more: boolean } | { recorded: false; reason: string };

const envelopeSchema = z.object({ name: z.literal('entityChangeEvent'), payload: z.object({ value: z.string() }) });
const eceSchema = z.object({
  category: z.literal('LINEAGE'),
  operation: z.enum(['ADD', 'REMOVE']),
  modifier: z.string(),
  parameters: z.object({
    aspectName: z.string(),
    relationshipType: z.string(),
    direction: z.enum(['UPSTREAM', 'DOWNSTREAM']),
    via: z.string().optional(),
  }),
  auditStamp: z.object({ time: z.number(), actor: z.string() }),
});

/**
 * One stored PlatformEvent_v1 event as a change. The log is written only by the catalog
 * (model/change-events.ts lineageChangeEvent), so an event of another shape is a defect, reported
 * as one rather than dropped (a dropped event would make the list look complete).
 */
export function recentLineageChangeOf(offset: number, value: string): RecentLineageChange {
  let ece: z.infer<typeof eceSchema>;
  try {
    ece = eceSchema.parse(JSON.parse(envelopeSchema.parse(JSON.parse(value)).payload.value));
  } catch (e) {
    throw new Error(`change log event ${offset} is not a lineage EntityChangeEvent`, { cause: e });
  }
  const p = ece.parameters;
  return {
    offset,
    time: ece.auditStamp.time,
    actor: ece.auditStamp.actor,
    operation: ece.operation,
    direction: p.direction,
    other: ece.modifier,
    relationshipType: p.relationshipType,
    aspectName: p.aspectName,
    via: p.via ?? null,
  };
}

/** One event stored compactly (its `lineage` text: events/append), read without rendering it. */
export function recentLineageChangeOfStored(offset: number, entityUrn: string, stored: string): RecentLineageChange {
  const { edge, operation, stamp } = decodeLineageChange(entityUrn, stored);
  const { other, direction } = otherEndOf(edge);
  return {
    offset,
    time: stamp.time,
    actor: stamp.actor,
    operation,
    direction,
    other,
    relationshipType: edge.type,
    aspectName: edge.aspect,
    via: edge.via || null,
  };
}

/** Why the change log cannot say what changed, or null when it records lineage events. */
export function lineageChangesUnrecorded(recorded: readonly EventTopic[]): string | null {
  if (recorded.includes(PLATFORM_EVENT_TOPIC)) return null;
  return recorded.length
    ? `This catalog's change log does not record lineage changes (EVENTS_TOPICS has no ${PLATFORM_EVENT_TOPIC}).`
    : 'The change log is off on this catalog (EVENTS_API_ENABLED=false).';
}

/**
 * The `count` newest lineage changes recorded about `urn`, newest first, and whether older ones are
 * kept (up to EVENTS_RETENTION_DAYS). `recorded` is the topics this catalog's writes record
 * (runtime changeLogTopicsOf): the log of a store written with lineage events off is not complete.
 */
export async function recentLineageChanges(
  store: Store,
  urn: string,
  count: number | null | undefined,
  recorded: readonly EventTopic[],
): Promise<RecentLineageChanges> {
  const n = count ?? RECENT_LINEAGE_CHANGES_DEFAULT;
  if (!Number.isInteger(n) || n < 1 || n > RECENT_LINEAGE_CHANGES_MAX) {
    throw badRequest(`count must be an integer from 1 to ${RECENT_LINEAGE_CHANGES_MAX}, got ${n}`);
  }
  const reason = lineageChangesUnrecorded(recorded);
  if (reason) return { recorded: false, reason };
  const rows = await store.read(
    (tx) =>
      tx.run<{ offset: number; item: string }>('events/recent-for-entity', {
        urn,
        topic: PLATFORM_EVENT_TOPIC,
        limit: int(n + 1),
      }),
    { metadata: { app: 'events', op: 'recent-for-entity' } },
  );
  // A LINEAGE event is stored compactly; one with its text is from before that, or a defect.
  const changeOf = (r: (typeof rows)[number]) => {
    const e = decodeChangeItem(r.offset, urn, r.item);
    if (e.lineage !== null) return recentLineageChangeOfStored(r.offset, urn, e.lineage);
    if (e.value !== null) return recentLineageChangeOf(r.offset, e.value);
    throw new Error(`change log event ${r.offset} has neither text nor a lineage change`);
  };
  return { recorded: true, changes: rows.slice(0, n).map(changeOf), more: rows.length > n };
}
