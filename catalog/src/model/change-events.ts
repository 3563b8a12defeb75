// What a committed write tells consumers (docs/change-events.md): DataHub's Events API records, built
// from what the write path already knows — the aspect rows before and after, and the derived edges
// before and after. Pure: the write path stores what this builds in the same transaction.
//
// Two topics, as GMS names them:
// - `PlatformEvent_v1`: one EntityChangeEvent of category LINEAGE per lineage edge added or removed.
//   DataHub has no lineage change events (its ChangeCategory has no LINEAGE); the shape is DataHub's
//   EntityChangeEvent, the parameters are ours (docs/change-events.md §Lineage events).
// - `MetadataChangeLog_Versioned_v1`: one MetadataChangeLog per aspect written, deleted or restated.
import { badRequest } from './errors.ts';
import type { DerivedEdge } from './relationships.ts';
import { parseUrn } from './urn.ts';

export const PLATFORM_EVENT_TOPIC = 'PlatformEvent_v1';
export const MCL_TOPIC = 'MetadataChangeLog_Versioned_v1';
export const EVENT_TOPICS = [PLATFORM_EVENT_TOPIC, MCL_TOPIC] as const;
export type EventTopic = (typeof EVENT_TOPICS)[number];

/** Days to milliseconds: retention and lookback windows are counted in days, as DataHub counts them. */
export const DAY_MS = 86_400_000;

/**
 * One record for the change log: its topic, the entity it is about, and either the polled `value`
 * text or, for a MetadataChangeLog whose rows stay in the store, a reference to them (`aspect`)
 * that a poll renders (docs/change-events.md §Cost).
 */
export type ChangeRecord =
  | TextChangeRecord
  | { topic: typeof MCL_TOPIC; entityUrn: string; value?: undefined; aspect: AspectChangeRef; lineage?: undefined }
  | { topic: typeof PLATFORM_EVENT_TOPIC; entityUrn: string; value?: undefined; aspect?: undefined; lineage: LineageChange };

/** A LINEAGE change before it is rendered: stored compactly, rendered by a poll (`lineageChangeText`). */
export interface LineageChange {
  edge: LineageEdge;
  operation: 'ADD' | 'REMOVE';
  stamp: ChangeStamp;
}

/** A record that carries its polled text. */
export interface TextChangeRecord {
  topic: EventTopic;
  entityUrn: string;
  value: string;
  aspect?: undefined;
  lineage?: undefined;
}

/**
 * A MetadataChangeLog by reference: the write path's UPSERT and RESTATE leave the value after (and
 * the one before) in stored aspect rows, which never change once written; copying them into the log
 * doubled the bytes a write stores. A value is named by its sequence number — the aspect's
 * `maxVersion` when it was the latest — and lives in the latest row while it is the latest, then
 * in the archived row numbered one above (store/rows.ts `rowKeyOfSequence`). Rows about to be
 * removed or overwritten are first copied into the events that refer to them (store/change-log.ts
 * `freezeAspectRefs`).
 */
export interface AspectChangeRef {
  aspectName: string;
  /** The key of the aspect's latest row (store/rows.ts `rowKey`): where its versions are found. */
  rowKey: string;
  changeType: 'UPSERT' | 'RESTATE';
  /** The value after the change. */
  sequence: number;
  /** The value before it; null when the aspect had none. */
  previousSequence: number | null;
  actor: string;
  time: number;
}

/** Who made the change and when (the write's actor and clock). */
export interface ChangeStamp {
  actor: string;
  time: number;
}

/**
 * JSON text with every non-ASCII character escaped. Avro's JSON encoder writes GMS's `bytes` payload
 * as ISO-8859-1 code points and Python reads it back as UTF-8, so only ASCII survives both readers.
 */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The entity a schemaField urn belongs to, else the urn itself. */
function entityOf(urn: string): string {
  if (!urn.startsWith('urn:li:schemaField:')) return urn;
  try {
    return parseUrn(urn).parts[0] ?? urn;
  } catch {
    return urn;
  }
}

/** A lineage edge as its change event names it: who declared it, in which aspect, its type and ends. */
export interface LineageEdge {
  owner: string;
  aspect: string;
  type: string;
  upstream: string;
  downstream: string;
  via: string | null;
}

/** The edge as its change event names it; null for an edge that is not lineage. */
export const lineageEdgeOf = (e: DerivedEdge): LineageEdge | null =>
  e.lineage
    ? { owner: e.owner, aspect: e.aspect, type: e.type, upstream: e.lineage.upstream, downstream: e.lineage.downstream, via: e.via }
    : null;

/**
 * The end of a lineage edge that is not its owner (the entity whose aspect declared it), and which
 * side of the owner it is: UPSTREAM when it feeds the owner. A column edge's owner is the entity of
 * one of its columns.
 */
export function otherEndOf(edge: LineageEdge): { other: string; direction: 'UPSTREAM' | 'DOWNSTREAM' } {
  const ownerIsDownstream = edge.downstream === edge.owner || entityOf(edge.downstream) === edge.owner;
  return ownerIsDownstream ? { other: edge.upstream, direction: 'UPSTREAM' } : { other: edge.downstream, direction: 'DOWNSTREAM' };
}

/**
 * The EntityChangeEvent of a lineage edge: about the entity whose aspect declared it, the modifier
 * is the other end; `direction` says which side of the owner that end is (UPSTREAM: it feeds the
 * owner). Column edges keep the owning entity, as DataHub's field-level TAG events do.
 */
export function lineageChangeEvent(edge: LineageEdge, operation: 'ADD' | 'REMOVE', stamp: ChangeStamp): TextChangeRecord {
  const { upstream, downstream } = edge;
  const { other, direction } = otherEndOf(edge);
  const ece = {
    entityType: parseUrn(edge.owner).entityType,
    entityUrn: edge.owner,
    category: 'LINEAGE',
    operation,
    modifier: other,
    parameters: {
      aspectName: edge.aspect,
      relationshipType: edge.type,
      direction,
      upstreamUrn: upstream,
      downstreamUrn: downstream,
      ...(edge.via ? { via: edge.via } : {}),
    },
    auditStamp: { time: stamp.time, actor: stamp.actor },
    version: 0,
  };
  const envelope = {
    header: { timestampMillis: stamp.time },
    name: 'entityChangeEvent',
    payload: { value: asciiJson(ece), contentType: 'application/json' },
  };
  return { topic: PLATFORM_EVENT_TOPIC, entityUrn: edge.owner, value: asciiJson(envelope) };
}

/**
 * One event per lineage edge the write added or removed. Edges are compared by key (ends, type,
 * owner, aspect): an edge whose properties alone changed (a new stamp, a new type of upstream) was
 * neither added nor removed. Removals first, then additions, each in the edges' order.
 */
export function lineageChangeEvents(
  before: ReadonlyMap<string, DerivedEdge>,
  after: ReadonlyMap<string, DerivedEdge>,
  stamp: ChangeStamp,
): ChangeRecord[] {
  const out: ChangeRecord[] = [];
  for (const [key, e] of before) {
    const edge = after.has(key) ? null : lineageEdgeOf(e);
    if (edge) out.push(lineageChangeRecord(edge, 'REMOVE', stamp));
  }
  for (const [key, e] of after) {
    const edge = before.has(key) ? null : lineageEdgeOf(e);
    if (edge) out.push(lineageChangeRecord(edge, 'ADD', stamp));
  }
  return out;
}

/** A lineage edge's change as the log records it: compact, rendered when polled. */
export function lineageChangeRecord(edge: LineageEdge, operation: 'ADD' | 'REMOVE', stamp: ChangeStamp): ChangeRecord {
  return { topic: PLATFORM_EVENT_TOPIC, entityUrn: edge.owner, lineage: { edge, operation, stamp } };
}

/**
 * A lineage change as the log stores it: one JSON text of its fields (the envelope's text is about
 * twice as long, and the log's cost grows with what each event sends and stores). The owner is the
 * event's entityUrn, stored beside it.
 */
export function encodeLineageChange(c: LineageChange): string {
  const { edge, operation, stamp } = c;
  return JSON.stringify([edge.aspect, edge.type, edge.upstream, edge.downstream, edge.via, operation, stamp.actor, stamp.time]);
}

/** A lineage change as `encodeLineageChange` stored it, about `entityUrn` (its owner). */
export function decodeLineageChange(entityUrn: string, stored: string): LineageChange {
  const [aspect, type, upstream, downstream, via, operation, actor, time] = JSON.parse(stored) as [
    string,
    string,
    string,
    string,
    string | null,
    'ADD' | 'REMOVE',
    string,
    number,
  ];
  return { edge: { owner: entityUrn, aspect, type, upstream, downstream, via }, operation, stamp: { actor, time } };
}

/** The polled text of a stored lineage change: exactly what `lineageChangeEvent` renders. */
export function lineageChangeText(entityUrn: string, stored: string): string {
  const { edge, operation, stamp } = decodeLineageChange(entityUrn, stored);
  return lineageChangeEvent(edge, operation, stamp).value;
}

/** An aspect row as the MCL carries it: the value's JSON text and the system metadata's. */
export interface RowText {
  value: string;
  systemMetadata: string | null;
}

export type MclChangeType = 'UPSERT' | 'DELETE' | 'RESTATE';

/** Avro JSON names the branch of a non-null union value; a null is written bare. */
const tagged = (branch: string, value: unknown) => (value === null || value === undefined ? null : { [branch]: value });

const SYSTEM_METADATA_FIELDS: ReadonlyArray<[string, string]> = [
  ['lastObserved', 'long'],
  ['runId', 'string'],
  ['lastRunId', 'string'],
  ['pipelineName', 'string'],
  ['registryName', 'string'],
  ['registryVersion', 'string'],
  ['properties', 'map'],
  ['version', 'string'],
  ['schemaVersion', 'long'],
];

/** A stored system metadata text as GMS's Avro JSON writes the record (every field, unions tagged). */
function avroSystemMetadata(text: string | null): unknown {
  if (!text) return null;
  let sm: Record<string, unknown>;
  try {
    sm = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return null;
  }
  const record: Record<string, unknown> = {};
  for (const [field, branch] of SYSTEM_METADATA_FIELDS) record[field] = tagged(branch, sm[field] ?? null);
  return { 'com.linkedin.pegasus2avro.mxe.SystemMetadata': record };
}

const genericAspect = (text: string | undefined) =>
  tagged('com.linkedin.pegasus2avro.mxe.GenericAspect', text === undefined ? null : { value: text, contentType: 'application/json' });

/**
 * The MetadataChangeLog of one aspect change, as GMS's Avro JSON encoder writes it on
 * MetadataChangeLog_Versioned_v1 (every field present, non-null union values tagged with their
 * branch): the aspect after (none for DELETE) and before, their system metadata, who and when.
 */
export function metadataChangeLog(input: {
  entityUrn: string;
  aspectName: string;
  changeType: MclChangeType;
  after: RowText | undefined;
  before: RowText | undefined;
  stamp: ChangeStamp;
}): TextChangeRecord {
  const { entityUrn, aspectName, changeType, after, before, stamp } = input;
  const mcl = {
    auditHeader: null,
    entityType: parseUrn(entityUrn).entityType,
    entityUrn: tagged('string', entityUrn),
    entityKeyAspect: null,
    changeType,
    aspectName: tagged('string', aspectName),
    aspect: genericAspect(after?.value),
    systemMetadata: avroSystemMetadata(after?.systemMetadata ?? null),
    headers: null,
    previousAspectValue: genericAspect(before?.value),
    previousSystemMetadata: avroSystemMetadata(before?.systemMetadata ?? null),
    created: tagged('com.linkedin.pegasus2avro.common.AuditStamp', {
      time: stamp.time,
      actor: stamp.actor,
      impersonator: null,
      message: null,
    }),
  };
  return { topic: MCL_TOPIC, entityUrn, value: asciiJson(mcl) };
}

// Offsets (docs/change-events.md §Offsets). The token is DataHub's own format — base64 of
// {"<topic>-<partition>": next offset to read} — with one partition, so it reads like GMS's and
// a consumer treats it as opaque either way.

export function encodeOffset(topic: EventTopic, next: number): string {
  return Buffer.from(JSON.stringify({ [`${topic}-0`]: next })).toString('base64');
}

/** The next offset a token names for `topic`; 400 naming offsetId for anything else. */
export function decodeOffset(topic: EventTopic, token: string): number {
  const refuse = (why: string) =>
    badRequest(
      `Invalid offsetId: ${why}. Send back the offsetId a poll of ${topic} answered, or leave it out to start at the latest event.`,
    );
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(token)) throw refuse('not a base64 token');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64').toString('utf8'));
  } catch {
    throw refuse('not a token this server issued');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw refuse('not a token this server issued');
  const entries = Object.entries(parsed);
  if (entries.length !== 1) throw refuse('not a token this server issued');
  const [key, next] = entries[0]!;
  if (key !== `${topic}-0`) throw refuse(`it is a position in ${key.replace(/-\d+$/, '')}, not in ${topic}`);
  if (typeof next !== 'number' || !Number.isSafeInteger(next) || next < 0) throw refuse('its position is not an offset');
  return next;
}

export function isEventTopic(topic: string): topic is EventTopic {
  return (EVENT_TOPICS as readonly string[]).includes(topic);
}
