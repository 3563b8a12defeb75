// The details sheet: a click on a node opens what the catalog stores about it beside the graph —
// type, platform, description, schema with column types and column-lineage counts, properties,
// owners, tags and terms, counts per degree both ways, its recent lineage changes (the change log's
// LINEAGE events about it), and for a job its pipeline and last runs (its stored
// dataProcessInstances). Copy urn, open in a new view, centre the graph there. A failure is shown as
// such in the sheet, never as an empty section.
import { ApiError } from './api.ts';
import { fetchColumnCounts, fetchDetails, fetchJobRuns, fetchRecentLineage, type LineageFilter } from './catalog-requests.ts';
import { TYPES_WITH_COLUMNS } from './columns.ts';
import type { Elements } from './elements.ts';
import type { Messages } from './messages.ts';
import { summarise, typeLabel, urnTail } from './model.ts';
import { DESCRIBING_ASPECTS, type DetailsReply, type JobRunsReply, type RecentLineageReply } from './queries.ts';
import { colourOf, escapeXml } from './render.ts';
import type { ExplorerState } from './state.ts';
import { viewHash, viewOf } from './view-url.ts';

const RUNS_SHOWN = 10;
const CHANGES_SHOWN = 20;

type Json = Record<string, unknown>;

export interface Details {
  /** Opens the sheet on an entity (again on the same one reloads it). */
  show(urn: string): Promise<void>;
  close(): void;
  /** The urn shown, or null when closed. */
  shown(): string | null;
}

function parse(payload: string | null | undefined): Json | null {
  if (!payload) return null;
  try {
    return JSON.parse(payload) as Json;
  } catch {
    return null;
  }
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v : null);

/** A schema field's type as people read it: the native type, else the type class without "Type". */
function fieldType(f: Json): string {
  const native = str(f.nativeDataType);
  if (native) return native;
  const inner = (f.type as Json | undefined)?.type as Json | undefined;
  const key = inner ? Object.keys(inner)[0] : undefined;
  return key ? key.split('.').pop()!.replace(/Type$/, '').toLowerCase() : '—';
}

function formatDuration(ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 1000) return `${ms} ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

const when = (ms: number | null) => (ms === null ? '—' : new Date(ms).toISOString().replace('T', ' ').slice(0, 16) + ' UTC');

function runState(r: JobRunsReply['dataJobRuns']['runs'][number]): string {
  if (r.status === 'COMPLETE') return r.result ?? 'COMPLETE';
  return r.status ?? 'unknown';
}

type LineageChange = NonNullable<RecentLineageReply['recentLineageChanges']['changes']>[number];

/** "added upstream", "removed downstream": what the change did, from the entity's side. */
function changeText(c: Pick<LineageChange, 'operation' | 'direction'>): string {
  return `${c.operation === 'REMOVE' ? 'removed' : 'added'} ${c.direction === 'UPSTREAM' ? 'upstream' : 'downstream'}`;
}

/** The other end: a link that opens its details when it is an entity the page shows, else its name. */
function otherEnd(c: LineageChange): string {
  const e = c.otherEntity;
  if (!e || e.type === 'SCHEMA_FIELD') return `<span title="${escapeXml(c.other)}">${escapeXml(urnTail(c.other))}</span>`;
  const s = summarise(e);
  return `<button type="button" class="linkish" data-open="${escapeXml(e.urn)}" title="${escapeXml(e.urn)}">${escapeXml(s.name)}</button> <span class="hint">(${escapeXml(typeLabel(s.type))})</span>`;
}

const RECENT_TITLE = 'Recent lineage changes';

function recentLineageSection(r: RecentLineageReply['recentLineageChanges']): string {
  const head = (extra: string) => `<section class="details-section"><h3>${RECENT_TITLE}${extra}</h3>`;
  if (!r.recorded || !r.changes) {
    return `${head('')}<p class="hint" data-recorded="false" title="${escapeXml(r.reason ?? '')}">The change log is off on this catalog: its lineage changes are not recorded.</p></section>`;
  }
  const where =
    '<p class="hint">Edges this entity declares (its upstreams; a job\'s inputs and outputs). An edge another entity declares shows on that one.</p>';
  if (!r.changes.length) return `${head('')}<p class="hint">No lineage change recorded on it in the change log.</p>${where}</section>`;
  return (
    `${head(` (${r.changes.length}${r.more ? ', older ones kept' : ''})`)}` +
    '<table class="details-table" id="details-changes-table"><caption class="sr-only">Recent lineage changes, newest first</caption><thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">Change</th></tr></thead><tbody>' +
    r.changes
      .map(
        (c) =>
          `<tr data-offset="${c.offset}" data-operation="${escapeXml(c.operation)}"><td class="when">${when(c.time)}</td><td title="${escapeXml(c.actor)}">${escapeXml(urnTail(c.actor))}</td>` +
          `<td class="change"><span class="change-op ${c.operation === 'REMOVE' ? 'removed' : 'added'}">${escapeXml(changeText(c))}</span> ${otherEnd(c)}${c.via ? `<span class="hint"> via ${escapeXml(urnTail(c.via))}</span>` : ''}</td></tr>`,
      )
      .join('') +
    `</tbody></table>${where}</section>`
  );
}

function degreeRow(label: string, side: DetailsReply['up']): string {
  if (!side) return `<tr><th scope="row">${label}</th><td colspan="4">not loaded</td></tr>`;
  const counts = new Map((side.facets?.find((f) => f.field === 'degree')?.aggregations ?? []).map((a) => [a.value, a.count]));
  const cell = (d: string) => `<td class="num">${counts.get(d) ?? 0}</td>`;
  return `<tr><th scope="row">${label}</th>${cell('1')}${cell('2')}${cell('3+')}<td class="num">${side.total}${side.isPartial ? ' (partial)' : ''}</td></tr>`;
}

export function createDetails(
  state: ExplorerState,
  ui: Elements,
  deps: { messages: Messages; navigateTo(urn: string): void; filter(): LineageFilter },
): Details {
  const { messages, navigateTo, filter } = deps;
  let current: string | null = null;
  let seq = 0;

  function close(): void {
    const wasOpen = !ui.details.hidden;
    current = null;
    seq++;
    ui.details.hidden = true;
    ui.detailsBody.innerHTML = '';
    document.body.classList.remove('details-open');
    if (wasOpen) ui.host.querySelector<SVGGElement>('[tabindex="0"]')?.focus({ preventScroll: true });
  }

  function section(title: string, body: string): string {
    return `<section class="details-section"><h3>${escapeXml(title)}</h3>${body}</section>`;
  }

  function render(urn: string, data: DetailsReply): string {
    const e = data.entity!;
    const summary = summarise(e);
    const aspects = new Map((e.aspects ?? []).map((a) => [a.aspectName, parse(a.payload)]));
    const info = DESCRIBING_ASPECTS.map((a) => aspects.get(a.aspect)).find((a) => a) ?? null;
    const editable = DESCRIBING_ASPECTS.flatMap((a) => (a.editable ? [aspects.get(a.editable)] : [])).find((a) => a) ?? null;
    const description = str(editable?.description) ?? str(info?.description);
    const qualified = str(info?.qualifiedName);
    const out: string[] = [];
    out.push(
      `<p class="details-type"><span style="color:${colourOf(summary.type)}">${escapeXml(typeLabel(summary.type))}</span>${summary.platform ? ` · ${escapeXml(summary.platform)}` : ''}</p>`,
    );
    out.push(`<p class="details-urn"><code>${escapeXml(urn)}</code></p>`);
    if (qualified) out.push(`<p class="hint">Qualified name: ${escapeXml(qualified)}</p>`);
    const link = `${location.pathname}${viewHash({ ...viewOf(state, urn), column: null, showColumns: false })}`;
    out.push(
      '<p class="details-actions">' +
        '<button type="button" data-action="copy">Copy urn</button>' +
        `<a href="${escapeXml(link)}" target="_blank" rel="noopener" class="button-link">Open in new view</a>` +
        (state.graph?.centre === urn ? '' : '<button type="button" data-action="centre">Centre the graph here</button>') +
        '<span class="copy-status" role="status"></span></p>',
    );
    out.push(
      section(
        'Description',
        description ? `<p class="details-description">${escapeXml(description)}</p>` : '<p class="hint">No description stored.</p>',
      ),
    );
    if (e.type === 'DATA_JOB' && summary.pipeline) {
      out.push(
        section(
          'Pipeline',
          `<p><button type="button" class="linkish" data-open="${escapeXml(summary.pipeline.urn)}">${escapeXml(summary.pipeline.name)}</button> <span class="hint">(data flow)</span></p>`,
        ),
      );
    }
    if (e.type === 'DATA_JOB' || e.type === 'DATA_FLOW')
      out.push(
        '<div id="details-runs"><section class="details-section"><h3>Last runs</h3><p class="hint">Loading runs…</p></section></div>',
      );
    out.push(
      section(
        'Lineage',
        '<table class="details-table"><caption class="sr-only">Entities per degree</caption><thead><tr><th scope="col"></th><th scope="col">1</th><th scope="col">2</th><th scope="col">3+</th><th scope="col">all</th></tr></thead><tbody>' +
          degreeRow('Upstream', data.up) +
          degreeRow('Downstream', data.down) +
          '</tbody></table><p class="hint">Entities at each degree, under the graph\'s filters.</p>',
      ),
    );
    out.push(
      `<div id="details-changes"><section class="details-section"><h3>${RECENT_TITLE}</h3><p class="hint">Loading changes…</p></section></div>`,
    );
    const fields = (aspects.get('schemaMetadata')?.fields as Json[] | undefined) ?? [];
    if (fields.length || TYPES_WITH_COLUMNS.has(e.type)) {
      const rows = fields
        .map(
          (f) =>
            `<tr data-field="${escapeXml(String(f.fieldPath))}"><th scope="row">${escapeXml(String(f.fieldPath))}</th><td>${escapeXml(fieldType(f))}</td><td class="num col-up">…</td><td class="num col-down">…</td></tr>`,
        )
        .join('');
      out.push(
        section(
          `Schema (${fields.length} column${fields.length === 1 ? '' : 's'})`,
          fields.length
            ? `<table class="details-table" id="details-schema"><caption class="sr-only">Columns, their types and column-level lineage</caption><thead><tr><th scope="col">Column</th><th scope="col">Type</th><th scope="col" title="columns it is made from">← up</th><th scope="col" title="columns made from it">down →</th></tr></thead><tbody>${rows}</tbody></table>`
            : '<p class="hint">No schema stored.</p>',
        ),
      );
    }
    const custom = (info?.customProperties as Json | undefined) ?? {};
    const props = Object.entries(custom).filter(([, v]) => v !== null && v !== undefined);
    if (props.length) {
      out.push(
        section(
          'Properties',
          `<dl class="details-props">${props.map(([k, v]) => `<dt>${escapeXml(k)}</dt><dd>${escapeXml(typeof v === 'string' ? v : JSON.stringify(v))}</dd>`).join('')}</dl>`,
        ),
      );
    }
    const owners = ((aspects.get('ownership')?.owners as Json[] | undefined) ?? []).map(
      (o) => `${urnTail(String(o.owner))}${o.type ? ` (${String(o.type).toLowerCase().replace(/_/g, ' ')})` : ''}`,
    );
    const tags = ((aspects.get('globalTags')?.tags as Json[] | undefined) ?? []).map((t) => urnTail(String(t.tag)));
    const terms = ((aspects.get('glossaryTerms')?.terms as Json[] | undefined) ?? []).map((t) => urnTail(String(t.urn)));
    const chips = (xs: string[]) => xs.map((x) => `<span class="chip">${escapeXml(x)}</span>`).join(' ');
    if (owners.length) out.push(section('Owners', `<p>${chips(owners)}</p>`));
    if (tags.length) out.push(section('Tags', `<p>${chips(tags)}</p>`));
    if (terms.length) out.push(section('Glossary terms', `<p>${chips(terms)}</p>`));
    return out.join('');
  }

  async function fillRuns(urn: string, mine: number): Promise<void> {
    const box = ui.detailsBody.querySelector('#details-runs');
    if (!box) return;
    try {
      const r = await fetchJobRuns(urn, RUNS_SHOWN);
      if (mine !== seq) return;
      box.innerHTML =
        `<section class="details-section"><h3>Last runs (${r.runs.length} of ${r.total})</h3>` +
        (r.runs.length
          ? `<table class="details-table" id="details-runs-table"><caption class="sr-only">Last runs, latest first</caption><thead><tr><th scope="col">State</th><th scope="col">Start</th><th scope="col">Duration</th></tr></thead><tbody>` +
            r.runs
              .map(
                (run) =>
                  `<tr data-run="${escapeXml(run.urn)}"><td><span class="run-state ${escapeXml(runState(run).toLowerCase())}">${escapeXml(runState(run))}</span>${run.errorMessage ? `<span class="hint"> ${escapeXml(run.errorMessage)}</span>` : ''}</td><td>${when(run.startTimeMillis)}</td><td>${formatDuration(run.durationMillis)}</td></tr>`,
              )
              .join('') +
            '</tbody></table>'
          : '<p class="hint">No runs stored for it.</p>') +
        '</section>';
    } catch (e) {
      if (mine !== seq) return;
      box.innerHTML = `<section class="details-section"><h3>Last runs</h3><p class="error" role="alert">${escapeXml(messages.describe(e, 'load the runs'))}</p></section>`;
    }
  }

  async function fillRecentLineage(urn: string, mine: number): Promise<void> {
    const box = ui.detailsBody.querySelector<HTMLElement>('#details-changes');
    if (!box) return;
    try {
      const r = await fetchRecentLineage(urn, CHANGES_SHOWN);
      if (mine !== seq) return;
      box.innerHTML = recentLineageSection(r);
      box.dataset.state = r.recorded ? 'loaded' : 'unrecorded';
    } catch (e) {
      if (mine !== seq) return;
      box.innerHTML = `<section class="details-section"><h3>${RECENT_TITLE}</h3><p class="error" role="alert">${escapeXml(messages.describe(e, 'load the recent lineage changes'))}</p></section>`;
      box.dataset.state = 'error';
    }
  }

  async function fillColumnCounts(urn: string, mine: number): Promise<void> {
    const table = ui.detailsBody.querySelector('#details-schema');
    if (!table) return;
    try {
      const counts = new Map((await fetchColumnCounts(urn)).map((c) => [c.fieldPath, c]));
      if (mine !== seq) return;
      for (const row of table.querySelectorAll<HTMLElement>('tbody tr')) {
        const c = counts.get(row.dataset.field!);
        row.querySelector('.col-up')!.textContent = String(c?.upstream ?? 0);
        row.querySelector('.col-down')!.textContent = String(c?.downstream ?? 0);
      }
      table.setAttribute('data-counts', 'loaded');
    } catch (e) {
      if (mine !== seq) return;
      for (const cell of table.querySelectorAll('.col-up, .col-down')) cell.textContent = '?';
      table.insertAdjacentHTML(
        'afterend',
        `<p class="error" role="alert">${escapeXml(messages.describe(e, 'load the column lineage counts'))}</p>`,
      );
    }
  }

  async function show(urn: string): Promise<void> {
    const mine = ++seq;
    current = urn;
    ui.details.hidden = false;
    document.body.classList.add('details-open');
    const known = state.graph?.nodes.get(urn);
    ui.detailsTitle.textContent = known?.name ?? urnTail(urn);
    ui.detailsBody.innerHTML = '<p class="hint">Loading details…</p>';
    ui.details.dataset.urn = urn;
    ui.details.dataset.state = 'loading';
    try {
      const data = await fetchDetails(urn, filter());
      if (mine !== seq) return;
      if (!data.entity || data.entity.exists === false) {
        ui.detailsBody.innerHTML = `<p class="error" role="alert">The catalog has nothing stored for <code>${escapeXml(urn)}</code>.</p>`;
        ui.details.dataset.state = 'missing';
        return;
      }
      ui.detailsTitle.textContent = summarise(data.entity).name;
      ui.detailsBody.innerHTML = render(urn, data);
      ui.details.dataset.state = 'loaded';
      await Promise.all([fillRuns(urn, mine), fillColumnCounts(urn, mine), fillRecentLineage(urn, mine)]);
    } catch (e) {
      if (mine !== seq) return;
      if (e instanceof ApiError && (e.kind === 'unauthenticated' || e.kind === 'expired')) {
        messages.reportError(e, 'load details');
      }
      ui.details.dataset.state = 'error';
      ui.detailsBody.innerHTML = `<div class="load-error" role="alert"><p>${escapeXml(messages.describe(e, `load the details of ${known?.name ?? urnTail(urn)}`))}</p><button type="button" data-action="retry">Try again</button></div>`;
    }
  }

  ui.detailsClose.addEventListener('click', close);
  ui.details.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape') {
      ev.stopPropagation();
      close();
    }
  });
  ui.detailsBody.addEventListener('click', (ev) => {
    const target = ev.target as Element;
    const action = target.closest<HTMLElement>('[data-action]')?.dataset.action;
    const open = target.closest<HTMLElement>('[data-open]')?.dataset.open;
    if (!current) return;
    const urn = current;
    if (action === 'copy') {
      const note = ui.detailsBody.querySelector('.copy-status')!;
      navigator.clipboard.writeText(urn).then(
        () => (note.textContent = 'Copied.'),
        () => (note.textContent = 'Could not copy: select the urn above.'),
      );
    } else if (action === 'centre') {
      state.refocusCentre = true;
      navigateTo(urn);
      void show(urn);
    } else if (action === 'retry') void show(urn);
    else if (open) void show(open);
  });

  return { show, close, shown: () => current };
}
