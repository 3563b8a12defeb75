// Column impact end to end: selecting a column asks the catalog for every column it reaches —
// across hops, through jobs, into chart and dashboard fields — with the column walk that keeps
// columns as columns (catalog-requests.ts columnImpact). The reached columns and the steps of their
// paths are highlighted in the graph (drawing.ts reads state.columnTrace); the impact list follows
// the same selection through the `column` view event.
import { columnImpact, type ColumnImpactPage, type LineageFilter } from './catalog-requests.ts';
import { columnKeyOfUrn, schemaFieldUrnOf, splitColumnKey, type ColumnEdge } from './columns.ts';
import type { Drawing } from './drawing.ts';
import type { Messages } from './messages.ts';
import { urnTail, type Direction } from './model.ts';
import { DIRECTIONS, type ColumnTrace, type ExplorerState } from './state.ts';
import type { Status } from './status.ts';
import type { ViewEvents } from './view-events.ts';

/** Results per direction the graph highlights; the impact list pages through any number. */
const TRACE_LIMIT = 2_000;

/** The reached column keys and path steps of one direction's page (pure; tested in column-trace.test.ts). */
export function traceOf(
  page: Pick<ColumnImpactPage, 'searchResults'>,
  direction: Direction,
): { reached: Set<string>; edges: ColumnEdge[] } {
  const reached = new Set<string>();
  const edges = new Map<string, ColumnEdge>();
  for (const r of page.searchResults) {
    const key = columnKeyOfUrn(r.entity.urn);
    if (key) reached.add(key);
    for (const p of r.paths ?? []) {
      // A job on a column path (its fine-grained lineage made the step) sits between two columns.
      const steps = (p?.path ?? []).flatMap((s) => {
        const k = s ? columnKeyOfUrn(s.urn) : null;
        return k ? [k] : [];
      });
      for (let i = 0; i + 1 < steps.length; i++) {
        const [from, to] = direction === 'DOWNSTREAM' ? [steps[i]!, steps[i + 1]!] : [steps[i + 1]!, steps[i]!];
        if (from !== to) edges.set(`${from}\u0000${to}`, { from, to });
      }
    }
  }
  return { reached, edges: [...edges.values()] };
}

export interface ColumnTracer {
  /** Selects a column (or clears the selection with null, or by selecting it again) and traces it. */
  select(key: string | null): Promise<void>;
}

export function createColumnTracer(
  state: ExplorerState,
  deps: { drawing: Drawing; status: Status; messages: Messages; events: ViewEvents; filter(): LineageFilter },
): ColumnTracer {
  const { drawing, status, messages, events } = deps;

  async function select(key: string | null): Promise<void> {
    state.selectedColumn = key === state.selectedColumn ? null : key;
    state.columnTrace = null;
    events.emit('column');
    const selected = state.selectedColumn;
    if (!selected) {
      drawing.redraw();
      return;
    }
    const { dataset, path } = splitColumnKey(selected);
    const name = state.graph?.nodes.get(dataset)?.name ?? urnTail(dataset);
    status.set(`Tracing column ${path} of ${name}…`);
    const active = DIRECTIONS.filter((d) => state.directions[d]);
    try {
      const pages = await Promise.all(
        active.map(async (d) => ({ direction: d, page: await columnImpact(schemaFieldUrnOf(selected), d, deps.filter(), 0, TRACE_LIMIT) })),
      );
      if (state.selectedColumn !== selected) return;
      const trace: ColumnTrace = { key: selected, upstream: new Set(), downstream: new Set(), edges: [], partial: false };
      for (const { direction, page } of pages) {
        const { reached, edges } = traceOf(page, direction);
        if (direction === 'UPSTREAM') trace.upstream = reached;
        else trace.downstream = reached;
        trace.edges.push(...edges);
        trace.partial ||= page.total > page.searchResults.length || page.isPartial === true;
      }
      state.columnTrace = trace;
      // Drawn before the summary is written: a finished draw rewrites the status line.
      await drawing.draw(++state.seq, performance.now(), false);
      if (state.selectedColumn !== selected) return;
      const fieldsOf = (keys: Set<string>) => [...keys].filter((k) => !splitColumnKey(k).dataset.startsWith('urn:li:dataset:')).length;
      status.set(
        `Column ${path} of ${name}: ${trace.upstream.size} upstream and ${trace.downstream.size} downstream columns` +
          ` (${fieldsOf(trace.downstream)} of them chart or dashboard fields downstream)${trace.partial ? `; only the nearest ${TRACE_LIMIT} per side are highlighted` : ''}.`,
      );
    } catch (e) {
      if (state.selectedColumn === selected) messages.reportError(e, `trace column ${path}`);
    }
  }

  return { select };
}
