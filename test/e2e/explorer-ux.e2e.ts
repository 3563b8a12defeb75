// End-to-end for issue 24, the explorer as data engineers use DataHub's, Marquez's and dbt docs'
// lineage views: the start page of a fresh catalog, as-you-type search, the graph first (panels that
// collapse and are remembered, Fit showing both sides, the minimap, 390 px), the details sheet of a
// dataset and of a job with runs, multi-select filters, a link with unescaped parentheses, the
// keyboard (one Tab stop for the graph, skip link, focus on the re-centred node), and never a false
// answer: a failed load, an expired token and services stopped while the page is open.
//
//   npm run build:explorer && node --test test/e2e/explorer-ux.e2e.ts
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { axeViolations, DESKTOP, NARROW, openHarness, signIn, type Harness } from './harness.ts';
import {
  dataset,
  graphql,
  seedColumnToDashboard,
  seedTutorial,
  seedWideGraph,
  type ColumnToDashboard,
  type TutorialGraph,
} from './seed.ts';
import { columnKey } from '../../explorer/src/columns.ts';
import { signAccessToken } from '../../catalog/src/operations/auth/tokens.ts';

let h: Harness;
let page: Page;
let g: TutorialGraph;
let cols: ColumnToDashboard;
let platform = 'hive';
let hub: string;
let hubUpstream: string[] = [];
let job = '';
const log = (line: string) => h.log(line);

before(async () => {
  // No remembered panels: this suite checks the page's own defaults.
  h = await openHarness('explorer-ux', { panelsOpen: false });
  page = h.page;
  platform = h.platform;
});

after(async () => {
  await h?.close();
});

const node = (urn: string) => page.locator(`g.node[data-urn="${urn}"]`);
const centreIs = (urn: string) => page.locator(`g.node.side-centre[data-urn="${urn}"]`).waitFor({ timeout: 90_000 });
/** Each test starts at 1,280 px with no sheet open, whatever the test before left behind. */
async function fresh(): Promise<void> {
  await page.setViewportSize(DESKTOP);
  if (await page.locator('#details').isVisible()) await page.locator('#details-close').click();
  await page.evaluate(`document.body.classList.remove('controls-sheet-open')`);
}
const drawn = async () => Number((await page.locator('#graph-host').getAttribute('data-ready')) ?? 0);

async function post(path: string, body: unknown): Promise<void> {
  const res = await fetch(`${h.door.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${h.door.token}`, 'x-restli-protocol-version': '2.0.0' },
    body: JSON.stringify(body),
  });
  assert.ok(res.ok, `${path} → HTTP ${res.status}: ${await res.text()}`);
}

function proposal(urn: string, aspectName: string, value: unknown) {
  return {
    entityType: /^urn:li:([^:]+):/.exec(urn)![1],
    entityUrn: urn,
    changeType: 'UPSERT',
    aspectName,
    aspect: { value: JSON.stringify(value), contentType: 'application/json' },
  };
}

/** Within the canvas's visible rectangle (a little slack for borders). */
async function inView(selector: string): Promise<boolean> {
  const box = await page.locator(selector).first().boundingBox();
  const canvas = await page.locator('#canvas').boundingBox();
  if (!box || !canvas) return false;
  return (
    box.x >= canvas.x - 2 && box.x + box.width <= canvas.x + canvas.width + 2 && box.y >= canvas.y - 2 && box.y < canvas.y + canvas.height
  );
}

test('a fresh catalog: the start page says it is empty and suggests nothing that does not exist', async () => {
  await signIn(h);
  await page.locator('#start-lists[data-state="loaded"]').waitFor();
  const text = await page.locator('#empty').innerText();
  assert.match(text, /holds no entities yet/);
  assert.doesNotMatch(text, /urn:li:/, 'no example urn is suggested');
  await h.shot('ux-01-start-empty');
  h.step({ step: 'start page, empty catalog', text: text.replace(/\s+/g, ' ').slice(0, 160) });
});

test('seeded: the start page lists the most connected and recently changed entities, each of which opens', async () => {
  g = await seedTutorial(h.door, platform);
  cols = await seedColumnToDashboard(h.door, platform);
  // A hub with three upstream sources and 20 × 24 downstream (the issue's hub, smaller).
  const wide = await seedWideGraph(h.door, platform, 20, 24, 'hub');
  hub = wide.root;
  hubUpstream = [0, 1, 2].map((i) => dataset(platform, `hub_source_${i}`));
  await post('/api/gms/aspects?action=ingestProposalBatch', {
    proposals: hubUpstream.map((u) => proposal(u, 'datasetProperties', { name: /,([^,]+),PROD\)$/.exec(u)![1], customProperties: {} })),
  });
  await post('/api/gms/aspects?action=ingestProposalBatch', {
    proposals: [
      proposal(hub, 'upstreamLineage', {
        upstreams: hubUpstream.map((u) => ({
          auditStamp: { time: 1_700_000_000_000, actor: 'urn:li:corpuser:datahub' },
          dataset: u,
          type: 'TRANSFORMED',
        })),
      }),
      proposal(hub, 'datasetProperties', {
        name: 'hub_root',
        description: 'Every order line, one row per line item.',
        qualifiedName: `warehouse.${platform}.hub_root`,
        customProperties: { team: 'finance', sla: '6h' },
      }),
      proposal(hub, 'schemaMetadata', {
        schemaName: 'hub_root',
        platform: `urn:li:dataPlatform:${platform}`,
        version: 0,
        hash: '',
        platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
        fields: [
          { fieldPath: 'order_id', type: { type: { 'com.linkedin.schema.NumberType': {} } }, nativeDataType: 'bigint' },
          { fieldPath: 'amount', type: { type: { 'com.linkedin.schema.NumberType': {} } }, nativeDataType: 'decimal(12,2)' },
        ],
      }),
      proposal(hub, 'globalTags', { tags: [{ tag: 'urn:li:tag:pii' }] }),
      proposal(hub, 'ownership', {
        owners: [{ owner: 'urn:li:corpuser:jdoe', type: 'DATAOWNER' }],
        lastModified: { time: 1_700_000_000_000, actor: 'urn:li:corpuser:datahub' },
      }),
    ],
  });
  // A job run three times by OpenLineage (two successes, one failure): its runs are dataProcessInstances.
  const event = (eventType: string, runId: string, at: number) => ({
    eventType,
    eventTime: new Date(at).toISOString(),
    producer: 'https://github.com/OpenLineage/OpenLineage/tree/1.0.0/integration/airflow',
    schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/definitions/RunEvent',
    run: { runId },
    job: { namespace: 'orders_pipeline', name: 'load_orders_daily' },
    inputs: [{ namespace: 'postgres://db:5432', name: 'shop.public.orders' }],
    outputs: [{ namespace: 'postgres://db:5432', name: 'shop.public.orders_daily' }],
  });
  const day = Date.parse('2026-11-20T02:00:00Z');
  const runs = [
    ['0191e7c0-0000-7000-8000-000000000001', 0, 'COMPLETE', 95_000],
    ['0191e7c0-0000-7000-8000-000000000002', 1, 'FAIL', 30_000],
    ['0191e7c0-0000-7000-8000-000000000003', 2, 'COMPLETE', 125_000],
  ] as const;
  for (const [id, d, end, ms] of runs) {
    await post('/api/v1/lineage', event('START', id, day + d * 86_400_000));
    await post('/api/v1/lineage', event(end, id, day + d * 86_400_000 + ms));
  }
  const found = await graphql(
    h.door,
    '{ searchAcrossEntities(input: { types: [DATA_JOB], query: "load_orders_daily", count: 5 }) { searchResults { entity { urn } } } }',
  );
  job = found.body.data.searchAcrossEntities.searchResults[0]?.entity.urn ?? '';
  assert.ok(job, `the OpenLineage job is searchable: ${JSON.stringify(found.body)}`);
  log(`job ${job}`);

  await page.reload();
  await page.locator('#start-lists[data-state="loaded"]').waitFor();
  const connected = await page
    .locator('#start-connected [data-urn]')
    .evaluateAll((els) => els.map((e) => (e as unknown as { dataset: { urn: string } }).dataset.urn));
  const recent = await page
    .locator('#start-recent [data-urn]')
    .evaluateAll((els) => els.map((e) => (e as unknown as { dataset: { urn: string } }).dataset.urn));
  assert.ok(connected.length > 0 && recent.length > 0, 'both lists have entries');
  // Most links first: the hub's children have 25 each (the root and 24 below), the hub 23.
  const links = (await page.locator('#start-connected .rmeta').allInnerTexts()).map((t) => Number(/(\d+) direct links/.exec(t)?.[1]));
  assert.deepEqual(
    links,
    [...links].sort((a, b) => b - a),
    `ordered by links: ${links.join(', ')}`,
  );
  assert.equal(links[0], 25, `the most connected have 25 links: ${connected.join(', ')}`);
  // Every suggestion exists: the catalog says so.
  const checked = await graphql(
    h.door,
    `{ entities(urns: ${JSON.stringify([...connected, ...recent])}) { urn ... on Dataset { exists } ... on DataJob { exists } ... on Chart { exists } ... on Dashboard { exists } ... on DataFlow { exists } ... on MLPrimaryKey { exists } } }`,
  );
  for (const e of checked.body.data.entities) assert.notEqual(e?.exists, false, `${e?.urn} exists`);
  await h.shot('ux-02-start-seeded');
  await page.locator(`#start-connected [data-urn="${connected[0]}"]`).click();
  await centreIs(connected[0]!);
  h.step({ step: 'start page, seeded', mostConnected: connected.length, recentlyChanged: recent.length });
});

test('search suggests as you type (no Enter), with type and platform, and the keyboard picks one', async () => {
  await fresh();
  // The box holds the open entity's urn: clear it first, as a user selects and types over it.
  await page.locator('#search').fill('');
  await page.locator('#search').pressSequentially('loggin', { delay: 40 });
  const suggestion = page.locator(`#search-results .result[data-urn="${g.events}"]`);
  await suggestion.waitFor({ timeout: 60_000 });
  assert.equal(await page.locator('#search').getAttribute('aria-expanded'), 'true');
  const text = await suggestion.innerText();
  assert.match(text, /Dataset/i);
  assert.match(text, new RegExp(platform));
  await h.shot('ux-03-search-suggestions');
  // Down to the suggestion, Enter opens it.
  await page.locator('#search').press('ArrowDown');
  const focused = await page.evaluate('document.activeElement && document.activeElement.dataset.urn');
  await page.keyboard.press('Enter');
  await centreIs(String(focused));
  h.step({ step: 'search suggestions', query: 'loggin', first: focused });
  // A word inside a name (`events` → `logging_events`): the catalog search splits names into words (issue 23).
  await page.locator('#search').fill('');
  await page.locator('#search').pressSequentially('events', { delay: 40 });
  await page.locator(`#search-results .result[data-urn="${g.events}"]`).waitFor({ timeout: 60_000 });
  h.step({ step: 'search word inside a name: "events" → logging_events', found: true });
  await page.locator('#search').press('Escape');
});

test('the graph first at 1280 px: panels closed by default, Fit shows both sides of the hub, the choice is remembered', async () => {
  await fresh();
  await page.setViewportSize(DESKTOP);
  await page.goto(`${h.pageUrl}#urn=${encodeURIComponent(hub)}`);
  await centreIs(hub);
  assert.equal(await page.locator('#controls').isVisible(), false, 'controls closed under 1,600 px');
  assert.equal(await page.locator('#impact').isVisible(), false, 'impact list closed under 1,600 px');
  const canvas = (await page.locator('#canvas').boundingBox())!;
  assert.ok(canvas.width >= DESKTOP.width - 4, `the graph has the full width: ${canvas.width}`);
  await page.locator('#zoom-fit').click();
  for (const u of hubUpstream) assert.ok(await inView(`g.node[data-urn="${u}"]`), `upstream ${u} in view after Fit`);
  // The far downstream: the degree-2 groups (or nodes) on the right.
  assert.ok(await inView('[data-degree="2"][data-side="downstream"]'), 'degree-2 downstream in view after Fit');
  await h.shot('ux-04-hub-1280-fit');
  // Open the filters; a reload keeps them open.
  await page.locator('#controls-toggle').click();
  await page.locator('#controls').waitFor({ state: 'visible' });
  await page.reload();
  await centreIs(hub);
  assert.equal(await page.locator('#controls').isVisible(), true, 'the open filters are remembered');
  assert.equal(await page.locator('#controls-toggle').getAttribute('aria-expanded'), 'true');
  await page.locator('#controls-toggle').click();
  await page.locator('#controls').waitFor({ state: 'hidden' });
  h.step({ step: 'hub at 1280 after Fit', canvasWidth: canvas.width, upstreamInView: hubUpstream.length });
});

test('a graph larger than the view gets an overview (minimap); clicking it scrolls the graph', async () => {
  await fresh();
  const group = page.locator('g.group').first();
  await group.click();
  await page.locator('g.group-collapse').first().waitFor();
  // Opening a group lays the graph out again, and the overview is redrawn (and may be hidden for a
  // moment) each time: take its box once it is shown and laid out.
  const miniSvg = page.locator('#minimap:not([hidden]) svg');
  let box = null;
  for (let attempt = 0; attempt < 20 && !box; attempt++) {
    await miniSvg.waitFor({ state: 'visible' });
    box = await miniSvg.boundingBox();
  }
  assert.ok(box, 'the overview is shown');
  const mini = box;
  const before = await page.evaluate('document.querySelector("#canvas").scrollTop');
  await page.mouse.click(mini.x + mini.width / 2, mini.y + mini.height - 3);
  const afterTop = await page.evaluate('document.querySelector("#canvas").scrollTop');
  assert.notEqual(afterTop, before, 'the minimap click scrolled the graph');
  await h.shot('ux-05-minimap');
  await page.locator('g.group-collapse').first().click();
  await page.locator('g.group-collapse').first().waitFor({ state: 'detached' });
  h.step({ step: 'minimap', scrolledFrom: before, to: afterTop });
});

test('390 px: the graph first, controls in a sheet; Fit after opening a group shows nodes, not an empty canvas', async () => {
  await fresh();
  await page.setViewportSize(NARROW);
  await page.goto(`${h.pageUrl}#urn=${encodeURIComponent(hub)}`);
  await centreIs(hub);
  const canvas = (await page.locator('#canvas').boundingBox())!;
  assert.ok(canvas.y < 200, `the graph starts within the first screen: y=${canvas.y}`);
  assert.equal(await page.locator('#controls').isVisible(), false, 'controls wait in a sheet');
  await page.locator('g.group').first().click();
  await page.locator('g.group-collapse').first().waitFor();
  await page.locator('#zoom-fit').click();
  let visibleNodes = 0;
  for (const n of await page.locator('g.node').all())
    if ((await n.isVisible()) && (await inView(`g.node[data-urn="${await n.getAttribute('data-urn')}"]`))) visibleNodes++;
  assert.ok(visibleNodes > 0, 'nodes in view after Fit');
  await h.shot('ux-06-hub-390-fit');
  await page.locator('#controls-toggle').click();
  await page.locator('#controls').waitFor({ state: 'visible' });
  const sheet = (await page.locator('#controls').boundingBox())!;
  assert.ok(sheet.x >= 0 && sheet.x + sheet.width <= NARROW.width + 1, 'the sheet fits the width');
  await h.shot('ux-07-390-controls-sheet');
  const violations = (await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(
    violations.map((v) => `${v.id}: ${v.help} ${v.nodes.map((n) => n.target.join(' ')).join('; ')}`),
    [],
  );
  await page.locator('#controls-close').click();
  await page.locator('#controls').waitFor({ state: 'hidden' });
  await page.locator('g.group-collapse').first().click();
  await page.setViewportSize(DESKTOP);
  h.step({ step: 'hub at 390 after Fit', canvasTop: canvas.y, nodesInView: visibleNodes });
});

test('details on click: a dataset shows type, platform, description, schema with types and column-lineage counts, properties, owners, tags, counts per degree', async () => {
  await fresh();
  await page.goto(`${h.pageUrl}#urn=${encodeURIComponent(hubUpstream[0]!)}`);
  await centreIs(hubUpstream[0]!);
  await node(hub).click();
  await page.locator('#details[data-state="loaded"]').waitFor();
  assert.equal(await page.locator('g.node.side-centre').getAttribute('data-urn'), hubUpstream[0], 'a click does not re-centre');
  const sheet = page.locator('#details');
  const text = await sheet.innerText();
  for (const expected of [
    /Dataset/i,
    new RegExp(platform),
    /Every order line/,
    /warehouse\.\w+\.hub_root/,
    /team/,
    /finance/,
    /jdoe/,
    /pii/,
  ])
    assert.match(text, expected);
  await page.locator('#details-schema[data-counts="loaded"]').waitFor();
  const amount = page.locator('#details-schema tr[data-field="amount"]');
  assert.match(await amount.innerText(), /decimal\(12,2\)/);
  // Per degree: 3 upstream at 1; 20 downstream at 1 and 480 at 2.
  const lineage = await sheet.locator('.details-table').first().innerText();
  assert.match(lineage, /Upstream\s+3\s+0\s+0\s+3/);
  assert.match(lineage, /Downstream\s+20\s+480\s+0\s+500/);
  const link = await sheet.locator('a', { hasText: 'Open in new view' }).getAttribute('href');
  assert.ok(link && decodeURIComponent(link).includes(`urn=${hub}`), `open in a new view links to the entity: ${link}`);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await sheet.locator('button[data-action="copy"]').click();
  await sheet.locator('.copy-status', { hasText: 'Copied.' }).waitFor();
  assert.equal(await page.evaluate('navigator.clipboard.readText()'), hub);
  // Centre the graph there: the sheet stays on the hub; Fit (the README's picture, copied by hand).
  await sheet.locator('button[data-action="centre"]').click();
  await centreIs(hub);
  await page.locator('#details[data-state="loaded"] #details-schema[data-counts="loaded"]').waitFor();
  await page.locator('#zoom-fit').click();
  await h.shot('ux-08-details-dataset');
  const violations = (await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(
    violations.map((v) => `${v.id}: ${v.help} ${v.nodes.map((n) => n.target.join(' ')).join('; ')}`),
    [],
  );
  await page.locator('#details-close').click();
  await page.locator('#details').waitFor({ state: 'hidden' });
  h.step({ step: 'details of a dataset', lineage: lineage.replace(/\s+/g, ' ') });
});

test('details of a job: its pipeline and last runs (state, start, duration) from the stored dataProcessInstances; jobs drawn under their pipeline', async () => {
  await fresh();
  await page.goto(`${h.pageUrl}#urn=${encodeURIComponent(job)}`);
  await centreIs(job);
  await page.locator(`g.pipeline`).first().waitFor({ state: 'attached' });
  await node(job).click();
  await page.locator('#details-runs-table').waitFor();
  const rows = await page.locator('#details-runs-table tbody tr').allInnerTexts();
  assert.equal(rows.length, 3, rows.join('\n'));
  assert.match(rows[0]!, /SUCCESS[\s\S]*2026-11-22 02:00 UTC[\s\S]*2 min 5 s/);
  assert.match(rows[1]!, /FAILURE[\s\S]*2026-11-21 02:00 UTC[\s\S]*30 s/);
  assert.match(rows[2]!, /SUCCESS[\s\S]*2026-11-20 02:00 UTC[\s\S]*1 min 35 s/);
  assert.match(await page.locator('#details').innerText(), /Pipeline\s+load_orders_daily/i);
  // Its recent lineage changes: the first run's event added the job's input and output (later runs
  // changed no edge), each with who and the other end as a link.
  await page.locator('#details-changes-table').waitFor();
  const changes = await page.locator('#details-changes-table tbody tr').allInnerTexts();
  assert.ok(
    changes.some((c) => /added upstream[\s\S]*orders\b/.test(c)),
    changes.join('\n'),
  );
  assert.ok(
    changes.some((c) => /added downstream[\s\S]*orders_daily/.test(c)),
    changes.join('\n'),
  );
  assert.ok(
    changes.every((c) => /^\d{4}-\d\d-\d\d \d\d:\d\d UTC\s+\S+\s+added (upstream|downstream)/.test(c)),
    changes.join('\n'),
  );
  assert.equal(await page.locator('#details-changes-table button.linkish[data-open]').count(), changes.length);
  await h.shot('ux-09-details-job-runs');
  // When their request fails, the section says so (never "no change") and the rest of the sheet stands.
  await page.route('**/api/graphql', (route) =>
    (route.request().postData() ?? '').includes('explorerRecentLineage')
      ? route.fulfill({ status: 503, body: 'Service Unavailable' })
      : route.continue(),
  );
  try {
    await node(job).click();
    await page.locator('#details-changes[data-state="error"] .error[role="alert"]').waitFor();
    await page.locator('#details-runs-table').waitFor();
    assert.doesNotMatch(await page.locator('#details-changes').innerText(), /No lineage change|change log is off/);
  } finally {
    await page.unroute('**/api/graphql');
  }
  await page.locator('#details-close').click();
  h.step({
    step: 'details of a job with runs',
    runs: rows.map((r) => r.replace(/\s+/g, ' ')),
    changes: changes.map((c) => c.replace(/\s+/g, ' ')),
  });
});

test('multi-select filters keep every option visible with its count', async () => {
  await fresh();
  await page.goto(`${h.pageUrl}#urn=${encodeURIComponent(g.events)}`);
  await centreIs(g.events);
  await page.locator('#controls-toggle').click();
  const types = page.locator('#type-filter input[data-filter="type"]');
  await types.first().waitFor({ state: 'attached' });
  const all = await types.evaluateAll((els) => els.map((e) => (e as unknown as { value: string }).value));
  assert.ok(all.length >= 3, `several types offered: ${all.join(', ')}`);
  await page.locator('#type-filter input[value="MLPRIMARY_KEY"]').check();
  await page.waitForFunction(`location.hash.includes('type=MLPRIMARY_KEY')`);
  await node(g.key).waitFor();
  await page.waitForFunction(`document.querySelectorAll('#type-filter input[data-filter="type"]').length === ${all.length}`);
  await page.locator('#type-filter input[value="DATA_JOB"]').check();
  await page.waitForFunction(`location.hash.includes('type=DATA_JOB')`);
  await node(g.job).waitFor();
  const after = await types.evaluateAll((els) =>
    els.map((e) => `${(e as unknown as { value: string; checked: boolean }).value}:${(e as unknown as { checked: boolean }).checked}`),
  );
  assert.equal(after.length, all.length, 'every option still listed');
  assert.ok(after.includes('MLPRIMARY_KEY:true') && after.includes('DATA_JOB:true'), after.join(', '));
  const counts = await page.locator('#type-filter .count').allInnerTexts();
  assert.ok(
    counts.every((c) => /^\d+$/.test(c.trim()) && Number(c) > 0),
    `counts shown: ${counts.join(', ')}`,
  );
  await h.shot('ux-10-multi-select-filters');
  await page.locator('#type-filter input[value="MLPRIMARY_KEY"]').uncheck();
  await page.locator('#type-filter input[value="DATA_JOB"]').uncheck();
  await page.locator('#controls-toggle').click();
  h.step({ step: 'multi-select filters', options: after.join(', ') });
});

test('column mode: the type filter keeps the columns whose parent has a ticked type; a chart is named by its title', async () => {
  await fresh();
  await page.goto(`${h.pageUrl}#urn=${encodeURIComponent(cols.orders)}`);
  await centreIs(cols.orders);
  await page.locator('#controls-toggle').click();
  await page.locator('#impact-toggle').click();
  await page.locator('#columns-toggle').check();
  await page.locator(`g.col[data-col="${columnKey(cols.orders, 'amount')}"]`).click();
  /** The list once it has settled on `n` rows, or on any number when n is undefined. */
  const rows = async (n?: number) => {
    await page.waitForFunction(
      `(() => { const s = document.querySelector('#impact-summary').textContent;
      const k = document.querySelectorAll('#impact-rows tr[data-urn]').length;
      return /Column/.test(document.querySelector('#impact-subject').textContent) && !/Loading/.test(s) && ${n === undefined ? 'k > 0' : `k === ${n}`}; })()`,
      undefined,
      { timeout: 60_000 },
    );
    return page.evaluate(
      `[...document.querySelectorAll('#impact-rows tr[data-urn]')].map((tr) => ({ type: tr.dataset.type, name: tr.querySelector('.impact-name').textContent }))`,
    ) as Promise<Array<{ type: string; name: string }>>;
  };
  const all = await rows();
  const types = new Set(all.map((r) => r.type));
  assert.ok(
    types.has('DATASET') && types.has('CHART') && types.has('DASHBOARD'),
    `the column reaches a table, a chart and a dashboard: ${JSON.stringify(all)}`,
  );
  const charts = all.filter((r) => r.type === 'CHART');
  assert.deepEqual(
    charts.map((r) => r.name),
    ['Revenue'],
    'the chart is named by its title, not its urn',
  );
  await page.locator('#type-filter input[value="CHART"]').check();
  const filtered = await rows(charts.length);
  assert.deepEqual(filtered, charts);
  assert.match(await page.locator('#impact-summary').innerText(), new RegExp(`^${charts.length} result`));
  await h.shot('ux-15-column-mode-type-filter');
  await page.locator('#type-filter input[value="CHART"]').uncheck();
  assert.equal((await rows(all.length)).length, all.length);
  await page.locator(`g.col[data-col="${columnKey(cols.orders, 'amount')}"]`).click();
  await page.locator('#columns-toggle').uncheck();
  await page.locator('#impact-toggle').click();
  await page.locator('#controls-toggle').click();
  h.step({ step: 'column mode, type filter', reached: all.length, charts: charts.length });
});

test('a deep link with unescaped parentheses (the CSV\'s entity url): "First view per side" reloads it', async () => {
  await fresh();
  await page.goto(`${h.pageUrl}#urn=${hub}`);
  await centreIs(hub);
  assert.ok(page.url().includes('(urn:li:dataPlatform'), 'the link keeps its raw parentheses');
  await page.locator('#controls-toggle').click();
  const before = await drawn();
  await page.locator('#page-size').selectOption('25');
  await page.waitForFunction(`Number(document.querySelector('#graph-host').dataset.ready) > ${before}`);
  const pill = await page.locator('[data-side-status="DOWNSTREAM"]').innerText();
  assert.match(pill, /Downstream: 25 of 500/);
  await h.shot('ux-11-deep-link-parentheses');
  await page.locator('#page-size').selectOption('50');
  await page.locator('#controls-toggle').click();
  h.step({ step: 'deep link with unescaped parentheses', status: pill });
});

test('keyboard: skip link past the graph, the graph one Tab stop with arrow keys inside, focus stays on the re-centred node', async () => {
  await fresh();
  await page.goto(`${h.pageUrl}#urn=${encodeURIComponent(g.events)}`);
  await centreIs(g.events);
  assert.equal(await page.locator('#graph-host [tabindex="0"]').count(), 1, 'one Tab stop in the graph');
  // Tab from the zoom-in button goes into the graph once, then out of it.
  await page.locator('#zoom-in').focus();
  const stops: string[] = [];
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press('Tab');
    stops.push(
      String(
        await page.evaluate(
          `(() => { const a = document.activeElement; return a.closest('#graph-host') ? 'graph' : (a.id || a.tagName); })()`,
        ),
      ),
    );
  }
  assert.equal(stops.filter((s) => s === 'graph').length, 1, `the graph is one Tab stop: ${stops.join(' → ')}`);
  // Inside, arrows move: right of the centre is the job.
  await node(g.events).focus();
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.evaluate('document.activeElement.dataset.urn'), g.job);
  await page.keyboard.press('Enter');
  await centreIs(g.job);
  await page.waitForFunction(
    `document.activeElement && document.activeElement.dataset && document.activeElement.dataset.urn === ${JSON.stringify(g.job)}`,
  );
  // Skip link: the second link at the top moves focus past the graph.
  await page.locator('#search').focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Shift+Tab');
  const skip = page.locator('a.skip', { hasText: 'Skip past the graph' });
  await skip.focus();
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate('document.activeElement.id'), 'after-graph');
  // Dates are one Tab stop each.
  await page.locator('#controls-toggle').click();
  await page.locator('#time-from').focus();
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate('document.activeElement.id'), 'time-to');
  await page.locator('#controls-toggle').click();
  h.step({ step: 'keyboard', tabStops: stops.join(' → ') });
});

test('the impact list breaks a long name between words, not inside one, and its Path column is not clipped', async () => {
  await fresh();
  const source = dataset(platform, 'impact_words_source');
  const long = dataset(platform, 'impact_words_target');
  const longName = 'daily revenue by customer segment, region and sales channel (restated)';
  await post('/api/gms/aspects?action=ingestProposalBatch', {
    proposals: [
      proposal(source, 'datasetProperties', { name: 'impact_words_source', customProperties: {} }),
      proposal(long, 'datasetProperties', { name: longName, customProperties: {} }),
    ],
  });
  await post('/api/gms/aspects?action=ingestProposalBatch', {
    proposals: [
      proposal(long, 'upstreamLineage', {
        upstreams: [{ auditStamp: { time: 1_700_000_000_000, actor: 'urn:li:corpuser:datahub' }, dataset: source, type: 'TRANSFORMED' }],
      }),
    ],
  });
  await page.goto(`${h.pageUrl}#urn=${encodeURIComponent(source)}`);
  await centreIs(source);
  await page.locator('#impact-toggle').click();
  const row = page.locator(`#impact-rows tr[data-urn="${long}"]`);
  await row.waitFor();
  await row.locator('.impact-path-toggle').click();
  await page.locator('#impact-rows tr.impact-path-row:not([hidden]) ol.impact-paths').waitFor();
  // A word is split over two lines only when it is wider than its cell by itself.
  const splitWords = (await page.evaluate(`(() => {
    const out = [];
    for (const b of document.querySelectorAll('#impact-rows .impact-name')) {
      const t = b.firstChild;
      if (!t) continue;
      const re = /\\S+/g;
      let m;
      while ((m = re.exec(t.textContent))) {
        const r = document.createRange();
        r.setStart(t, m.index);
        r.setEnd(t, m.index + m[0].length);
        const rects = [...r.getClientRects()];
        const lines = new Set(rects.map((x) => Math.round(x.top))).size;
        const width = rects.reduce((w, x) => w + x.width, 0);
        if (lines > 1 && width <= b.parentElement.clientWidth) out.push(m[0]);
      }
    }
    return out;
  })()`)) as string[];
  assert.deepEqual(splitWords, [], 'no word that fits its cell is broken across lines');
  // Nothing of the table, the Path button or the opened path is cut off by the panel.
  const clipped = (await page.evaluate(`(() => {
    const panel = document.querySelector('#impact').getBoundingClientRect();
    const out = [];
    for (const el of document.querySelectorAll('#impact-rows .impact-path-toggle, #impact-rows .impact-paths li')) {
      const r = el.getBoundingClientRect();
      if (r.right > panel.right + 1 || el.scrollWidth > el.clientWidth + 1) out.push(el.className || el.tagName);
    }
    const table = document.querySelector('#impact-rows').closest('table');
    if (table.getBoundingClientRect().right > panel.right + 1) out.push('table');
    return out;
  })()`)) as string[];
  assert.deepEqual(clipped, [], 'the Path column and the opened path fit the panel');
  await h.shot('ux-16-impact-list-long-name');
  await page.locator('#impact-toggle').click();
  h.step({ step: 'impact list: long names and paths', splitWords: splitWords.length, clipped: clipped.length });
});

test('never a false answer: a failed load shows an error in place of the graph and the list, not "no lineage"', async () => {
  await fresh();
  await page.goto(`${h.pageUrl}#urn=${encodeURIComponent(g.events)}`);
  await centreIs(g.events);
  await page.locator('#impact-toggle').click();
  // The catalog answers 503 from now on (the lineage service down behind the gateway).
  await page.route('**/api/graphql', (route) => route.fulfill({ status: 503, body: 'Service Unavailable' }));
  await page
    .locator('label:has(input[name="degree"][value="1"])')
    .click()
    .catch(async () => {
      await page.locator('#controls-toggle').click();
      await page.locator('label:has(input[name="degree"][value="1"])').click();
    });
  await page.locator('#graph-host[data-state="error"] .load-error').waitFor();
  assert.equal(await page.locator('g.node').count(), 0, 'no graph drawn');
  assert.equal(await page.locator('.empty.note').count(), 0, 'no "no lineage" note');
  await page.locator('#impact-summary [data-state="error"]').waitFor();
  assert.match(await page.locator('#degree-counts').innerText(), /unknown/);
  assert.match(await page.locator('#type-filter').innerText(), /Not loaded/);
  assert.doesNotMatch(await page.locator('main').innerText(), /has no upstream|no upstream or downstream/);
  await h.shot('ux-12-error-503');
  // Back up: Try again draws it.
  await page.unroute('**/api/graphql');
  await page.locator('.load-error button.retry').click();
  await node(g.job).waitFor();
  await page.locator('label:has(input[name="degree"][value="3+"])').click();
  h.step({ step: 'error state (HTTP 503)', graph: 'error in place', list: 'error in place' });
});

test('an expired token is said to be expired; signing in again reloads the view', async () => {
  await fresh();
  await page.goto(`${h.pageUrl}#urn=${encodeURIComponent(g.events)}`);
  await centreIs(g.events);
  const expired = await signAccessToken({
    signingKey: h.stack.env.DATAHUB_TOKEN_SERVICE_SIGNING_KEY!,
    actorId: 'datahub',
    type: 'PERSONAL',
    version: '2',
    now: Date.now() - 7_200_000,
    expiresInMs: 3_600_000,
  });
  await page.evaluate(`sessionStorage.setItem("lineage-explorer.token", ${JSON.stringify(expired.token)})`);
  await page.locator('#zoom-fit').focus();
  await page.goto(`${h.pageUrl}#urn=${encodeURIComponent(g.job)}`);
  await page.locator('#signin').waitFor({ state: 'visible' });
  const reason = await page.locator('#signin-error').innerText();
  assert.match(reason, /expired/i);
  await h.shot('ux-13-expired-token');
  await page.locator('#token').fill(h.stack.token);
  await page.locator('#signin-submit').click();
  await page.locator('#signin').waitFor({ state: 'hidden' });
  await centreIs(g.job);
  h.step({ step: 'expired token', reason });
});

test('services stopped while the page is open: the next action shows an error state, never "no lineage"', async () => {
  await fresh();
  await page.goto(`${h.pageUrl}#urn=${encodeURIComponent(g.events)}`);
  await centreIs(g.events);
  await h.stack.stop();
  // Re-centre on the job (keyboard): the open fails, the graph and the list give way to the error.
  await node(g.job).focus();
  await page.keyboard.press('Enter');
  await page.locator('#graph-host[data-state="error"] .load-error').waitFor({ timeout: 60_000 });
  const text = await page.locator('#graph-host .load-error').innerText();
  assert.equal(await page.locator('g.node').count(), 0, 'no stale graph');
  assert.match(await page.locator('#impact-summary').innerText(), /not loaded/i);
  assert.match(text, /Could not|not loaded/i);
  assert.equal(await page.locator('.empty.note').count(), 0);
  await h.shot('ux-14-services-stopped');
  h.step({ step: 'services stopped mid-use', shown: text.replace(/\s+/g, ' ').slice(0, 200) });
});
