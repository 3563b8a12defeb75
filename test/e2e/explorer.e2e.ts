// End-to-end: the lineage explorer page in headless Chromium against the whole stack seeded through
// the real APIs (test/e2e/harness.ts): sign-in, search, the tutorial graph, filters, columns,
// re-centring and errors. Screenshots and a timing report go to test-artifacts/e2e/.
//
//   npm run test:e2e                      (builds the page first)
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { axeViolations, DESKTOP, NARROW, openHarness, type Harness } from './harness.ts';
import { field, seedColumnToDashboard, seedTutorial, type ColumnToDashboard, type TutorialGraph } from './seed.ts';
import { columnKey } from '../../explorer/src/columns.ts';

let h: Harness;
let page: Page;
let g: TutorialGraph;
let c: ColumnToDashboard;
let platform = 'hive';
const log = (line: string) => h.log(line);
const shot = (name: string) => h.shot(name);

before(async () => {
  h = await openHarness('explorer');
  page = h.page;
  platform = h.platform;
  g = await seedTutorial(h.door, platform);
  c = await seedColumnToDashboard(h.door, platform);
});

after(async () => {
  await h?.close();
});

const node = (urn: string) => page.locator(`g.node[data-urn="${urn}"]`);
const centreIs = (urn: string) => page.locator(`g.node.side-centre[data-urn="${urn}"]`).waitFor({ timeout: 20_000 });

async function search(text: string): Promise<void> {
  await page.locator('#search').fill(text);
  await page.locator('#search').press('Enter');
}

test('a bad token gets a clear 401 message and no page behind the sign-in', async () => {
  const t0 = Date.now();
  await page.goto(h.pageUrl);
  log(`page loaded in ${Date.now() - t0} ms`);
  await page.locator('#signin').waitFor({ state: 'visible' });
  log(`sign-in visible after ${Date.now() - t0} ms`);
  await page.locator('#token').fill('eyJhbGciOiJIUzI1NiJ9.not-a-real-token.x');
  const t1 = Date.now();
  await page.locator('#signin-submit').click();
  const error = page.locator('#signin-error');
  await error.waitFor({ state: 'visible' });
  log(`401 shown ${Date.now() - t1} ms after submit`);
  assert.match(await error.innerText(), /rejected \(HTTP 401 Unauthorized\)/);
  await shot('01-bad-token');
  h.step({ step: 'bad token', message: await error.innerText() });
});

test('sign in with a personal access token; it lives in sessionStorage only', async () => {
  await page.locator('#token').fill(`Bearer ${h.stack.token}\n`);
  await page.locator('#signin-submit').click();
  await page.locator('#signin').waitFor({ state: 'hidden' });
  assert.equal(await page.evaluate('sessionStorage.getItem("lineage-explorer.token")'), h.stack.token);
  // localStorage holds layout preferences only (which panels are open), never the token.
  const stored = String(await page.evaluate('JSON.stringify(Object.entries(localStorage))'));
  assert.ok(!stored.includes(h.stack.token), 'the token is not in localStorage');
  assert.match(await page.locator('#session-state').innerText(), /Signed in/);
});

test('searching the tutorial dataset by name centres it: job at degree 1, ML primary key at degree 2 downstream', async () => {
  const t0 = Date.now();
  await search(`logging_events ${platform}`);
  await page.locator(`#search-results .result[data-urn="${g.events}"]`).click();
  await centreIs(g.events);
  await node(g.key).waitFor();
  const job = node(g.job);
  assert.equal(await job.getAttribute('data-type'), 'DATA_JOB');
  assert.equal(await job.getAttribute('data-side'), 'downstream');
  assert.equal(await job.getAttribute('data-degree'), '1');
  const key = node(g.key);
  assert.equal(await key.getAttribute('data-type'), 'MLPRIMARY_KEY');
  assert.equal(await key.getAttribute('data-side'), 'downstream');
  assert.equal(await key.getAttribute('data-degree'), '2');
  for (const up of [g.created, g.deleted]) {
    assert.equal(await node(up).getAttribute('data-side'), 'upstream');
    assert.equal(await node(up).getAttribute('data-degree'), '1');
  }
  // Upstream drawn to the left of the centre, downstream to the right, degree 2 beyond degree 1.
  const x = async (urn: string) => (await node(urn).boundingBox())!.x;
  assert.ok((await x(g.created)) < (await x(g.events)));
  assert.ok((await x(g.events)) < (await x(g.job)));
  assert.ok((await x(g.job)) < (await x(g.key)));
  // Nodes show type, platform and name.
  const text = await node(g.events)
    .innerText()
    .catch(async () => (await node(g.events).textContent()) ?? '');
  assert.match(text, /DATASET/);
  assert.match(text, new RegExp(platform));
  assert.match(text, /logging_events/);
  assert.equal((await page.locator('g.node[data-type="DATA_JOB"] text.platform').textContent())?.trim(), 'airflow');
  // Facet-driven filters list what the API reported.
  await page.locator('#type-filter input[value="MLPRIMARY_KEY"]').waitFor({ state: 'attached' });
  await page.locator(`#platform-filter input[value="urn:li:dataPlatform:${platform}"]`).waitFor({ state: 'attached' });
  await shot('02-tutorial-lineage');
  h.step({ step: 'tutorial lineage', ms: Date.now() - t0, nodes: await page.locator('g.node').count() });
});

test('degree 1 hides the degree-2 key and offers to expand; the type filter keeps the path', async () => {
  await page.locator('label:has(input[name="degree"][value="1"])').click();
  await node(g.key).waitFor({ state: 'detached' });
  await page.locator(`g.expand[data-expand="${g.sessions}"]`).waitFor();
  await page.locator(`g.expand[data-expand="${g.sessions}"]`).click();
  await node(g.key).waitFor();
  assert.equal(await node(g.key).getAttribute('data-degree'), '2');
  await page.locator('label:has(input[name="degree"][value="3+"])').click();
  await page.locator('#type-filter input[value="MLPRIMARY_KEY"]').check();
  await node(g.key).waitFor();
  await page.waitForFunction(`document.querySelectorAll('g.node:not(.context):not(.side-centre)').length === 1`);
  assert.equal(await node(g.sessions).getAttribute('class'), 'node side-downstream context');
  await shot('03-type-filter');
  await page.locator('#type-filter input[value="MLPRIMARY_KEY"]').uncheck();
  await node(g.created).waitFor();
});

test('a name finds entities across the whole catalogue', async () => {
  await search(`fct_users ${platform}`);
  const results = page.locator('#search-results .result');
  await results.first().waitFor();
  const urns = await results.evaluateAll((els) => els.map((e) => (e as unknown as { dataset: { urn: string } }).dataset.urn));
  assert.deepEqual([...urns].sort(), [g.created, g.deleted].sort());
  await shot('04-name-search');
  await page.locator('#search').press('Escape');
});

test('column display draws browser → browser_id and browser → user_id; selecting a column highlights across hops', async () => {
  assert.equal(await page.locator('#columns-toggle').isChecked(), false, 'column display is off by default');
  assert.equal(await page.locator('path.col-edge').count(), 0);
  await page.locator('#columns-toggle').check();
  const edge = (from: string, to: string) => page.locator(`path.col-edge[data-from="${from}"][data-to="${to}"]`);
  const browser = columnKey(g.deleted, 'browser');
  await edge(browser, columnKey(g.events, 'browser_id')).waitFor({ state: 'attached' });
  await edge(browser, columnKey(g.events, 'user_id')).waitFor({ state: 'attached' });
  await edge(columnKey(g.events, 'user_id'), columnKey(g.sessions, 'user_id')).waitFor({ state: 'attached' });
  await shot('05-columns');
  await page.locator(`g.col[data-col="${browser}"]`).click();
  // The catalog's column walk (column-trace.ts) lights what the column reaches.
  await page.locator('#status', { hasText: /^Column browser of/ }).waitFor();
  const lit = await page
    .locator('g.col.highlighted')
    .evaluateAll((els) => els.map((e) => (e as unknown as { dataset: { col: string } }).dataset.col));
  assert.deepEqual(
    lit.sort(),
    [
      columnKey(g.events, 'browser_id'),
      columnKey(g.events, 'user_id'),
      columnKey(g.sessions, 'browser_id'),
      columnKey(g.sessions, 'user_id'),
    ].sort(),
  );
  assert.equal(await page.locator('path.col-edge.hot').count(), 4);
  await shot('06-column-selected');
  h.step({
    step: 'column display',
    columnEdges: await page.locator('path.col-edge').count(),
    highlighted: lit.length,
    schemaField: field(g.deleted, 'browser'),
  });
  await page.locator(`g.col[data-col="${browser}"]`).press('Escape');
  await page.locator('#columns-toggle').uncheck();
});

test('clicking a node opens its details; "Centre the graph here" re-centres (and the keyboard can do the same)', async () => {
  await node(g.job).click();
  await page.locator('#details[data-state="loaded"]').waitFor();
  await page.locator('#details button[data-action="centre"]').click();
  await centreIs(g.job);
  await page.locator('#details-close').click();
  assert.equal(decodeURIComponent(new URL(page.url()).hash), `#urn=${g.job}`);
  assert.equal(await node(g.events).getAttribute('data-side'), 'upstream');
  assert.equal(await node(g.sessions).getAttribute('data-side'), 'downstream');
  assert.equal(await node(g.key).getAttribute('data-degree'), '2');
  await shot('07-recentred-on-job');
  // Keyboard: focus the upstream node, Enter re-centres there.
  await node(g.events).focus();
  await page.keyboard.press('Enter');
  await centreIs(g.events);
  await page.goBack();
  await centreIs(g.job);
});

test('column impact end to end: a source column traced through a job into a chart field and a dashboard field', async () => {
  await search(`shop_orders ${platform}`);
  await page.locator(`#search-results .result[data-urn="${c.orders}"]`).click();
  await centreIs(c.orders);
  await node(c.dashboard).waitFor();
  await page.locator('#columns-toggle').check();
  const amount = columnKey(c.orders, 'amount');
  const row = page.locator(`g.col[data-col="${amount}"]`);
  await row.waitFor();
  // Keyboard: the column row is a button; Enter selects it.
  await row.focus();
  await page.keyboard.press('Enter');
  const lit = (key: string) => page.locator(`g.col.highlighted[data-col="${key}"]`);
  const revenueTotal = columnKey(c.revenue, 'total');
  const chartTotal = columnKey(c.chart, 'total');
  const dashboardField = columnKey(c.dashboard, 'revenue_total');
  for (const key of [revenueTotal, chartTotal, dashboardField]) await lit(key).waitFor({ timeout: 20_000 });
  assert.equal(await page.locator('g.col.highlighted').count(), 3, 'exactly the three downstream columns are lit');
  assert.equal(await page.locator(`g.col.selected[data-col="${amount}"]`).count(), 1);
  // The hops drawn: through the job (its fine-grained lineage), into the chart, into the dashboard.
  const hot = (from: string, to: string) => page.locator(`path.col-edge.hot[data-from="${from}"][data-to="${to}"]`);
  for (const [from, to] of [
    [amount, revenueTotal],
    [revenueTotal, chartTotal],
    [chartTotal, dashboardField],
  ] as const) {
    await hot(from, to).waitFor({ state: 'attached' });
  }
  assert.match(await page.locator('#status').innerText(), /3 downstream columns \(2 of them chart or dashboard fields downstream\)/);
  assert.ok(decodeURIComponent(new URL(page.url()).hash).includes(`col=urn:li:schemaField:(${c.orders},amount)`), page.url());
  // A wide window, so the whole way from the table to the dashboard is in the picture beside the list.
  await page.setViewportSize({ width: 1920, height: 900 });
  await page.locator('#zoom-fit').click();
  await shot('15-column-to-dashboard');
  await page.setViewportSize(DESKTOP);
  h.step({ step: 'column traced to a dashboard field', lit: 3, hotEdges: await page.locator('path.col-edge.hot').count() });
});

test('deep links: reload restores centre, direction, degree, time window, columns and the selected column; back/forward step through views', async () => {
  // From the column view of the test before: downstream only, then a time window.
  await page.locator('#dir-upstream').uncheck();
  await page.waitForFunction(`location.hash.includes('dir=down')`);
  await page.locator('#time-from').fill('2000-01-01');
  await page.locator('#time-from').dispatchEvent('change');
  await page.waitForFunction(`location.hash.includes('from=2000-01-01')`);
  await node(c.dashboard).waitFor();
  const link = page.url();
  for (const part of ['urn=', 'dir=down', 'from=2000-01-01', 'columns=1', 'col='])
    assert.ok(decodeURIComponent(link).includes(part), `${part} in ${link}`);

  // Reload: the same view, the selected column traced again.
  await page.reload();
  await centreIs(c.orders);
  await page.locator(`g.col.highlighted[data-col="${columnKey(c.dashboard, 'revenue_total')}"]`).waitFor({ timeout: 20_000 });
  assert.equal(await page.locator('#dir-upstream').isChecked(), false);
  assert.equal(await page.locator('#dir-downstream').isChecked(), true);
  assert.equal(await page.locator('#time-from').inputValue(), '2000-01-01');
  assert.equal(await page.locator('#columns-toggle').isChecked(), true);
  await shot('16-deep-link-restored');

  // Degree 1 is a new history entry; back returns to 3+ with the dashboard, forward to degree 1.
  await page.locator('label:has(input[name="degree"][value="1"])').click();
  await node(c.dashboard).waitFor({ state: 'detached' });
  assert.ok(page.url().includes('degree=1'));
  await page.goBack();
  await node(c.dashboard).waitFor();
  assert.equal(await page.locator('input[name="degree"][value="3+"]').isChecked(), true);
  await page.goForward();
  await node(c.dashboard).waitFor({ state: 'detached' });
  assert.equal(await page.locator('input[name="degree"][value="1"]').isChecked(), true);

  // Back to the plain view for the tests after this one.
  await page.goto(`${h.pageUrl}#urn=${encodeURIComponent(c.orders)}`);
  await centreIs(c.orders);
  await page.waitForFunction(
    `document.querySelector('#dir-upstream').checked && !document.querySelector('#columns-toggle').checked && document.querySelector('#time-from').value === ''`,
  );
  h.step({ step: 'deep link', link: decodeURIComponent(link) });
});

test('accessibility: axe-core finds no serious or critical violations (graph with columns, signed in; desktop and narrow)', async () => {
  await page.locator('#columns-toggle').check();
  await page.locator('g.col').first().waitFor();
  const problems: string[] = [];
  for (const [label, size] of [
    ['desktop', DESKTOP],
    ['narrow', NARROW],
  ] as const) {
    await page.setViewportSize(size);
    const violations = await axeViolations(page);
    const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    for (const v of serious)
      problems.push(
        `${label}: ${v.id} (${v.impact}): ${v.help} — ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join('; ')}`,
      );
    h.step({ step: `axe-core ${label}`, violations: violations.map((v) => `${v.id}:${v.impact}`).join(', ') || 'none' });
  }
  await page.setViewportSize(DESKTOP);
  assert.deepEqual(problems, [], problems.join('\n'));
  await page.locator('#columns-toggle').uncheck();
});

test('narrow screen (390 px): no sideways scrolling, search, controls and graph reachable', async () => {
  await page.setViewportSize(NARROW);
  await centreIs(c.orders);
  const overflow = await page.evaluate('document.documentElement.scrollWidth - window.innerWidth');
  assert.ok(Number(overflow) <= 1, `the page scrolls sideways by ${String(overflow)} px at 390 px`);
  for (const selector of ['#search', '#controls-toggle', '#canvas']) {
    const box = await page.locator(selector).boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= NARROW.width + 1, `${selector} inside the 390 px viewport`);
  }
  await shot('17-narrow-graph');
  await page.setViewportSize(DESKTOP);
});

test('a missing entity gets a clear message', async () => {
  const missing = `urn:li:dataset:(urn:li:dataPlatform:${platform},does_not_exist,PROD)`;
  await search(missing);
  const message = page.locator('#message');
  await message.waitFor({ state: 'visible' });
  assert.match(await message.innerText(), /Entity not found: nothing has been ingested for urn:li:dataset/);
  await shot('08-missing-entity');
});

test('an expired session (401 on a later call) returns to sign-in with the reason', async () => {
  await page.evaluate('sessionStorage.setItem("lineage-explorer.token", "revoked.or.garbage")');
  await search(g.events);
  await page.locator('#signin').waitFor({ state: 'visible' });
  assert.match(await page.locator('#signin-error').innerText(), /HTTP 401/);
  await page.locator('#token').fill(h.stack.token);
  await page.locator('#signin-submit').click();
  await page.locator('#signin').waitFor({ state: 'hidden' });
});
