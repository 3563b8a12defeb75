// End-to-end: the lineage explorer page in headless Chromium against the whole stack seeded through
// the real APIs (test/e2e/harness.ts): sign-in, search, the tutorial graph, filters, columns,
// re-centring and errors. Screenshots and a timing report go to test-artifacts/e2e/.
//
//   npm run test:e2e                      (builds the page first)
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { openHarness, type Harness } from './harness.ts';
import { field, seedTutorial, seedWideGraph, type TutorialGraph } from './seed.ts';
import { columnKey } from '../../explorer/src/columns.ts';

let h: Harness;
let page: Page;
let g: TutorialGraph;
let platform = 'hive';
const log = (line: string) => h.log(line);
const shot = (name: string) => h.shot(name);

before(async () => {
  h = await openHarness('explorer');
  page = h.page;
  platform = h.platform;
  g = await seedTutorial(h.door, platform);
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
  assert.equal(await page.evaluate('localStorage.length'), 0);
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
  assert.ok(await x(g.created) < await x(g.events));
  assert.ok(await x(g.events) < await x(g.job));
  assert.ok(await x(g.job) < await x(g.key));
  // Nodes show type, platform and name.
  const text = await node(g.events).innerText().catch(async () => (await node(g.events).textContent()) ?? '');
  assert.match(text, /DATASET/);
  assert.match(text, new RegExp(platform));
  assert.match(text, /logging_events/);
  assert.equal(await page.locator('g.node[data-type="DATA_JOB"] text.platform').textContent(), 'airflow');
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
  const lit = await page.locator('g.col.highlighted').evaluateAll((els) => els.map((e) => (e as unknown as { dataset: { col: string } }).dataset.col));
  assert.deepEqual(lit.sort(), [columnKey(g.events, 'browser_id'), columnKey(g.events, 'user_id'), columnKey(g.sessions, 'browser_id'), columnKey(g.sessions, 'user_id')].sort());
  assert.equal(await page.locator('path.col-edge.hot').count(), 4);
  await shot('06-column-selected');
  h.step({ step: 'column display', columnEdges: await page.locator('path.col-edge').count(), highlighted: lit.length, schemaField: field(g.deleted, 'browser') });
  await page.locator(`g.col[data-col="${browser}"]`).press('Escape');
  await page.locator('#columns-toggle').uncheck();
});

test('clicking a node re-centres on it (and the keyboard can do the same)', async () => {
  await node(g.job).click();
  await centreIs(g.job);
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

test('500-node neighbourhood: capped first view with "N more", then all 500 rendered (timed, not asserted)', async () => {
  const door = h.door;
  const wide = await seedWideGraph(door, platform, 20, 24);
  assert.equal(wide.count, 500);

  // First view: capped at the default page size, with the rest one click away.
  let t0 = Date.now();
  await search(wide.root);
  await centreIs(wide.root);
  const more = page.locator('g.more[data-more="DOWNSTREAM"]');
  await more.waitFor();
  const firstView = { wallMs: Date.now() - t0, ...(await page.evaluate('window.__explorer.timings') as object) };
  assert.match(await more.innerText().catch(async () => (await more.textContent()) ?? ''), /450 more/);
  await shot('09-capped-first-view');
  // "N more" loads the next page into the same picture.
  await page.locator('.status .more-btn[data-more="DOWNSTREAM"]').click();
  await page.waitForFunction('window.__explorer?.timings?.nodes === 101');
  assert.match(await page.locator('[data-side-status="DOWNSTREAM"]').innerText(), /Downstream: 100 of 500/);
  assert.match((await page.locator('g.more[data-more="DOWNSTREAM"]').textContent()) ?? '', /400 more/);

  // All 500 at once: first view raised to 500 per side.
  t0 = Date.now();
  await page.locator('#page-size').selectOption('500');
  await page.waitForFunction('document.querySelector("#graph")?.dataset.nodes === "501" && window.__explorer?.timings?.nodes === 501', undefined, { timeout: 60_000 });
  const full = { wallMs: Date.now() - t0, ...(await page.evaluate('window.__explorer.timings') as object) };
  assert.equal(await page.locator('g.node').count(), 501);
  await shot('10-500-nodes');
  // Two more full redraws (direction off and on again) so the report shows the spread on a shared machine.
  const again: Array<Record<string, number>> = [];
  for (let i = 0; i < 2; i++) {
    await page.locator('#dir-downstream').uncheck();
    await page.waitForFunction('document.querySelector("#graph")?.dataset.nodes === "1"');
    const t = Date.now();
    await page.locator('#dir-downstream').check();
    await page.waitForFunction('window.__explorer?.timings?.nodes === 501', undefined, { timeout: 60_000 });
    again.push({ wallMs: Date.now() - t, ...(await page.evaluate('window.__explorer.timings') as Record<string, number>) });
  }
  await page.locator('#zoom-fit').click();
  await shot('11-500-nodes-fit');
  h.step({ step: 'first view (cap 50 per side, 500 downstream)', ...firstView });
  h.step({ step: '500-node neighbourhood render', ...full });
  again.forEach((r, i) => h.step({ step: `500-node redraw ${i + 2}`, ...r }));
  log(`500 nodes: ${JSON.stringify(full)}`);
});
