// GET /openapi/v1/events/poll (docs/change-events.md §Polling): the next events of a topic after the
// consumer's offset, waiting up to the poll timeout for the first one (a long poll). The answer's
// offsetId is where the next poll continues; it never moves backwards and is a string even when
// nothing came.
import { setTimeout as sleep } from 'node:timers/promises';
import { badRequest } from '../model/errors.ts';
import { DAY_MS, decodeOffset, encodeOffset, EVENT_TOPICS, isEventTopic, type EventTopic } from '../model/change-events.ts';
import { firstOffsetSince, readEvents, readLogHead } from '../store/change-log.ts';
import type { Store } from '../store/store.ts';

/** DataHub's defaults and bounds (its events service factory and controller). */
const POLL_DEFAULT_LIMIT = 100;
const POLL_MAX_LIMIT = 5000;
const POLL_DEFAULT_TIMEOUT_SECONDS = 5;
const POLL_MAX_TIMEOUT_SECONDS = 60;
/** How often a waiting poll looks for new events: the floor of commit-to-delivery latency. */
const WAIT_STEP_MS = 50;

export interface PollRequest {
  topic: EventTopic;
  offsetId: string | undefined;
  limit: number;
  timeoutMs: number;
  lookbackWindowDays: number | undefined;
}

export interface PollAnswer {
  offsetId: string;
  count: number;
  events: Array<{ value: string; contentType: 'application/json' }>;
}

/** A whole number from a query parameter, or 400 naming it. */
function integerParam(name: string, text: string | undefined): number | undefined {
  if (text === undefined || text === '') return undefined;
  if (!/^-?\d+$/.test(text.trim())) throw badRequest(`Invalid ${name}: '${text}' is not a whole number`);
  return Number(text);
}

/**
 * The poll's query parameters, checked: an unknown topic (or one the catalog does not record), a limit ≤ 0 and a negative timeout are the
 * client's mistakes and answer 400 naming the parameter (DataHub answers 403, 200, 200); a limit or
 * timeout above DataHub's bound is clamped to it, as DataHub does.
 */
export function parsePollRequest(query: Record<string, string | undefined>, recorded: readonly EventTopic[] = EVENT_TOPICS): PollRequest {
  const topic = query.topic;
  if (topic === undefined || topic === '') throw badRequest(`Missing topic: one of ${recorded.join(', ')}`);
  if (!isEventTopic(topic)) throw badRequest(`Unknown topic '${topic}': this server's topics are ${recorded.join(', ')}`);
  if (!recorded.includes(topic))
    throw badRequest(`Unknown topic '${topic}': this catalog records only ${recorded.join(', ')} (EVENTS_TOPICS)`);
  const limit = integerParam('limit', query.limit) ?? POLL_DEFAULT_LIMIT;
  if (limit <= 0) throw badRequest(`Invalid limit: ${limit}; ask for at least 1 event (at most ${POLL_MAX_LIMIT} are returned)`);
  const timeout = integerParam('pollTimeoutSeconds', query.pollTimeoutSeconds) ?? POLL_DEFAULT_TIMEOUT_SECONDS;
  if (timeout < 0) throw badRequest(`Invalid pollTimeoutSeconds: ${timeout}; use 0 (answer at once) up to ${POLL_MAX_TIMEOUT_SECONDS}`);
  const lookback = integerParam('lookbackWindowDays', query.lookbackWindowDays);
  if (lookback !== undefined && lookback < 0) throw badRequest(`Invalid lookbackWindowDays: ${lookback}; use a number of days ≥ 0`);
  const offsetId = query.offsetId === '' ? undefined : query.offsetId;
  return {
    topic,
    offsetId,
    limit: Math.min(limit, POLL_MAX_LIMIT),
    timeoutMs: Math.min(timeout, POLL_MAX_TIMEOUT_SECONDS) * 1000,
    lookbackWindowDays: lookback,
  };
}

/**
 * Where the poll starts: the token's offset (checked against the log: one beyond its head was not
 * issued here, one below what retention pruned has lost events), else the lookback window's first
 * event, else the head (only what commits from now on).
 */
async function startOffset(store: Store, r: PollRequest): Promise<number> {
  const head = await readLogHead(store);
  if (r.offsetId !== undefined) {
    const from = decodeOffset(r.topic, r.offsetId);
    // Beyond the head as a replica sees it may only be lag: ask the leader before refusing.
    if (from > head.next && from > (await readLogHead(store, true)).next) {
      throw badRequest(
        `Invalid offsetId: it names offset ${from}, beyond the last one this catalog issued (${head.next}); ` +
          'it was issued by another server or before the store was replaced. Start again without offsetId (reset_offsets in DataHub Actions).',
      );
    }
    if (from < head.prunedBelow) {
      throw badRequest(
        `Expired offsetId: events from offset ${from} up to ${head.prunedBelow - 1} were removed by retention (EVENTS_RETENTION_DAYS), ` +
          'so continuing would silently skip them. Start again without offsetId or with lookbackWindowDays (reset_offsets / lookback_days in DataHub Actions).',
      );
    }
    return from;
  }
  if (r.lookbackWindowDays !== undefined && r.lookbackWindowDays > 0) {
    const first = await firstOffsetSince(store, r.topic, Date.now() - r.lookbackWindowDays * DAY_MS);
    return Math.max(first ?? head.next, head.prunedBelow);
  }
  return head.next;
}

/** One poll: events from the start offset, waiting up to the timeout for the first (stops early on `signal`). */
export async function pollChanges(store: Store, r: PollRequest, signal?: AbortSignal): Promise<PollAnswer> {
  const from = await startOffset(store, r);
  const deadline = Date.now() + r.timeoutMs;
  for (;;) {
    const rows = await readEvents(store, r.topic, from, r.limit);
    if (rows.length || Date.now() >= deadline || signal?.aborted) {
      const next = rows.length ? rows[rows.length - 1]!.offset + 1 : from;
      return {
        offsetId: encodeOffset(r.topic, next),
        count: rows.length,
        events: rows.map((row) => ({ value: row.value, contentType: 'application/json' })),
      };
    }
    await sleep(Math.min(WAIT_STEP_MS, Math.max(0, deadline - Date.now())));
  }
}
