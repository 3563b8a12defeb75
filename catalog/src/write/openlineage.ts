// The OpenLineage door's write (docs/lineage-model.md §OpenLineage): the events' plans (model/
// openlineage) are read under their entities' locks and written through the one write path, so every
// aspect is validated, versioned and derived exactly as from the other doors. A batch is written in
// transactions of up to EVENTS_PER_WRITE events, in order: each one's entities locked together, what
// its plans merge with read once, each event's writes computed on what the events before it wrote,
// and all of it handed to the write path as one list — the batching the write path is built for.
// Bounded because a transaction holds its events' values, their stored state and their change
// events at once: a 500-event batch of re-runs took the ingestion service's heap past 112 MB.
//
// Each event is judged on its own: whatever refuses one event (a name the urn grammar does not
// take, a value the write path refuses) is that event's failure, reported with its reason; the
// other events of the batch are written. Only the store failing fails the request.
import { isCatalogError, validationFailed, type CatalogError } from '../model/errors.ts';
import { stateKey } from '../model/openlineage/entity-state.ts';
import type { AspectWrite, EventPlan } from '../model/openlineage/event-plan.ts';
import { planOpenLineageEvent } from '../model/openlineage/plan-openlineage-event.ts';
import type { OpenLineageEvent } from '../model/openlineage/events.ts';
import { sameJsonText, type JsonRecord } from '../model/json.ts';
import { unchangedWithinGranularity } from '../model/lineage-stamps.ts';
import { InvalidUrnError, parseUrn, parseUrnOrThrow } from '../model/urn.ts';
import type { Store, Tx } from '../store/store.ts';
import { lockRows, rowKey } from '../store/rows.ts';
import { writeAspectsInTx } from './aspect-writer.ts';
import type { AspectChange, WriteOptions } from './changes.ts';

export type EventOutcome = { index: number; ok: true } | { index: number; ok: false; error: CatalogError };

/** Some events' plans, in order, in one transaction. */
async function applyPlans(tx: Tx, plans: readonly EventPlan[], options: WriteOptions): Promise<void> {
  const locked = [...new Set(plans.flatMap((p) => p.locks))].map((u) => parseUrnOrThrow(u));
  await tx.run('aspects/lock-entities', { rows: lockRows(locked) });
  const keys = [...new Set(plans.flatMap((p) => p.reads.map((r) => rowKey(r.urn, r.aspect))))];
  const rows = await tx.run<{ urn: string; name: string; value: string }>('aspects/fetch-latest', { keys });
  const state = new Map(rows.map((r) => [stateKey(r.urn, r.name), JSON.parse(r.value) as JsonRecord]));
  // What the stored state names beyond the events (a FAIL's run's earlier outputs): locked and read
  // before anything is computed. What earlier events of the batch add, they read themselves.
  const more = plans.flatMap((p) => (p.followUp ? [p.followUp(state)] : []));
  const lockedUrns = new Set(locked.map((u) => u.text));
  const moreLocks = [...new Set(more.flatMap((m) => m.locks))].filter((u) => !lockedUrns.has(u));
  if (moreLocks.length) await tx.run('aspects/lock-entities', { rows: lockRows(moreLocks.map((u) => parseUrnOrThrow(u))) });
  const fetched = new Set(keys);
  const moreKeys = [...new Set(more.flatMap((m) => m.reads.map((r) => rowKey(r.urn, r.aspect))))].filter((k) => !fetched.has(k));
  if (moreKeys.length) {
    for (const r of await tx.run<{ urn: string; name: string; value: string }>('aspects/fetch-latest', { keys: moreKeys })) {
      state.set(stateKey(r.urn, r.name), JSON.parse(r.value) as JsonRecord);
    }
  }
  const writes: PlannedWrite[] = [];
  for (const [event, plan] of plans.entries()) {
    for (const write of plan.writes(state, options.actor)) {
      const key = stateKey(write.urn, write.aspectName);
      writes.push({ event, write, before: state.get(key), read: state.has(key) });
      // The next events merge with what this one leaves, as they would one transaction later.
      state.set(key, write.value);
    }
  }
  const changes = await changedWrites(tx, writes, new Set([...lockedUrns, ...moreLocks]), options.stampGranularityMs ?? 0);
  // The stamps were judged above, per entity; the write path judging them again per aspect would
  // leave out an entity's keys while writing what they order. It still skips identical values.
  if (changes.length) await writeAspectsInTx(tx, changes, { ...options, stampGranularityMs: 0 });
}

/** A write a plan made, with the value it merged with (`read`: whether the plans read that row). */
type PlannedWrite = { event: number; write: AspectWrite; before: JsonRecord | undefined; read: boolean };

/**
 * The writes that change something. The write path skips a value equal to the stored latest one
 * (docs/lineage-model.md §Aspect rows); the rows of the entities this door locked were read here
 * already, under those locks, so the rule is applied here first: a re-run or a replay then hands
 * the write path only what changed (a re-run within the granularity: its run), and a replay nothing
 * at all (no second lock and read). A row of a locked entity the plans write without having read it
 * is read here to be compared; the writes to entities not locked (a flow, a dataset only named,
 * created when missing) go on as they are.
 *
 * Lineage stamps moved by less than the granularity are judged per entity and event, never per
 * aspect: an entity's openLineage aspect holds the keys that say which event its other aspects come
 * from (a run's state is its newest event's), so an event's writes of one entity are all left out
 * when each of them moves only such stamps, and all written when one of them changes more. Leaving
 * out the keys alone would leave the other aspects newer than the keys say, and replaying an older
 * event would then write its older values again.
 */
async function changedWrites(
  tx: Tx,
  writes: readonly PlannedWrite[],
  locked: ReadonlySet<string>,
  stampGranularityMs: number,
): Promise<AspectChange[]> {
  const unread = [...new Set(writes.filter((w) => !w.read && locked.has(w.write.urn)).map((w) => rowKey(w.write.urn, w.write.aspectName)))];
  const stored = new Map<string, string>();
  if (unread.length)
    for (const r of await tx.run<{ urn: string; name: string; value: string }>('aspects/fetch-latest', { keys: unread }))
      stored.set(stateKey(r.urn, r.name), r.value);
  // What each row will hold as the writes so far leave it: writes left out leave the row as it was,
  // so stamps the next writes move are judged against it, never drifting past the granularity.
  const held = new Map<string, string | undefined>();
  const heldText = ({ write: w, before, read }: PlannedWrite) => {
    const key = stateKey(w.urn, w.aspectName);
    if (held.has(key)) return held.get(key);
    return read ? (before === undefined ? undefined : JSON.stringify(before)) : stored.get(key);
  };
  const changes: AspectChange[] = [];
  for (const ofEvent of byEvent(writes)) {
    // The locked entities this event changes by more than stamps, judged on the rows as the earlier events left them.
    const changedEntities = new Set<string>();
    for (const p of ofEvent) {
      if (!locked.has(p.write.urn) || changedEntities.has(p.write.urn)) continue;
      const text = heldText(p);
      if (text === undefined || !unchangedWithinGranularity(p.write.aspectName, text, JSON.stringify(p.write.value), stampGranularityMs))
        changedEntities.add(p.write.urn);
    }
    for (const p of ofEvent) {
      const { event, write: w } = p;
      if (locked.has(w.urn)) {
        const key = stateKey(w.urn, w.aspectName);
        const text = heldText(p);
        // Left out: the row stays as it was, not as this event's plan (which the next events merged with) left it.
        if (!changedEntities.has(w.urn)) {
          held.set(key, text);
          continue;
        }
        const next = JSON.stringify(w.value);
        if (text !== undefined && sameJsonText(text, next)) continue;
        held.set(key, next);
      }
      changes.push({
        urn: parseUrnOrThrow(w.urn),
        aspectName: w.aspectName,
        changeType: 'UPSERT',
        value: w.value,
        source: `events[${event}]`,
      });
    }
  }
  return changes;
}

/** The writes grouped by their event, in order. */
function byEvent(writes: readonly PlannedWrite[]): PlannedWrite[][] {
  const groups: PlannedWrite[][] = [];
  for (const w of writes) {
    const last = groups.at(-1);
    if (last && last[0]!.event === w.event) last.push(w);
    else groups.push([w]);
  }
  return groups;
}

/** A client's mistake in one event (its names, its values): reported, never retried. */
const isEventError = (e: unknown): e is CatalogError => isCatalogError(e) && (e.kind === 'validation' || e.kind === 'badRequest');

/**
 * An event's plan, with every urn it names checked by the urn grammar before anything is read or
 * written: a name the grammar refuses is this event's failure, saying which name.
 */
function planOf(event: OpenLineageEvent): EventPlan {
  const plan = planOpenLineageEvent(event);
  for (const urn of new Set(plan.urns)) {
    try {
      parseUrn(urn);
    } catch (e) {
      if (!(e instanceof InvalidUrnError)) throw e;
      throw validationFailed(`Invalid OpenLineage event: a name gives an invalid urn (${e.reason}): ${preview(urn)}`);
    }
  }
  return plan;
}

/** A urn as a message shows it: as a JSON string (control characters, lone surrogates escaped), a long one shortened (a name may be a megabyte). */
function preview(urn: string): string {
  const shown = JSON.stringify(urn.length > 200 ? urn.slice(0, 200) : urn);
  return urn.length > 200 ? `${shown}… (${urn.length} characters)` : shown;
}

/**
 * Writes events in order: each is planned and its names checked on its own (a bad one reported);
 * the good ones EVENTS_PER_WRITE to a transaction (writeInOrder). Store failures propagate.
 */
export async function ingestOpenLineage(
  store: Store,
  events: readonly OpenLineageEvent[],
  options: WriteOptions,
  /** Throws when the actor may not write one of the entities the events write (a 403 for the request). */
  authorize?: (urns: readonly string[]) => Promise<void>,
): Promise<EventOutcome[]> {
  const outcomes: EventOutcome[] = [];
  const planned: Array<{ index: number; plan: EventPlan }> = [];
  for (const [index, event] of events.entries()) {
    try {
      planned.push({ index, plan: planOf(event) });
    } catch (e) {
      if (!isEventError(e)) throw e;
      outcomes.push({ index, ok: false, error: e });
    }
  }
  if (planned.length > 0 && authorize) await authorize([...new Set(planned.flatMap((p) => p.plan.urns))]);
  for (let i = 0; i < planned.length; i += EVENTS_PER_WRITE) {
    outcomes.push(...(await writeInOrder(store, planned.slice(i, i + EVENTS_PER_WRITE), options)));
  }
  return outcomes.sort((a, b) => a.index - b.index);
}

/** Events a transaction writes together (the batch route takes more: it writes them in turn). */
export const EVENTS_PER_WRITE = 100;

/** Planned events in one transaction; when the write path refuses one of them, each in its own so the others are kept. */
async function writeInOrder(
  store: Store,
  planned: ReadonlyArray<{ index: number; plan: EventPlan }>,
  options: WriteOptions,
): Promise<EventOutcome[]> {
  const write = (work: (tx: Tx) => Promise<void>) => store.write(work, options.metadata ? { metadata: options.metadata } : undefined);
  try {
    await write((tx) =>
      applyPlans(
        tx,
        planned.map((p) => p.plan),
        options,
      ),
    );
    return planned.map(({ index }) => ({ index, ok: true }));
  } catch (e) {
    if (!isEventError(e)) throw e;
    if (planned.length === 1) return [{ index: planned[0]!.index, ok: false, error: e }];
  }
  const outcomes: EventOutcome[] = [];
  for (const { index, plan } of planned) {
    try {
      await write((tx) => applyPlans(tx, [plan], options));
      outcomes.push({ index, ok: true });
    } catch (e) {
      if (!isEventError(e)) throw e;
      outcomes.push({ index, ok: false, error: e });
    }
  }
  return outcomes;
}
