// End-to-end for a newcomer's first minute (issue 52): `npm start -- --sample` on a fresh data
// directory, then the banner's sign-in link. The sample is loaded by the loader --sample calls
// (tools/sample-data.ts, through the ingestion service's doors), twice, and must leave the same
// graph; the link signs the page in, opens the featured dataset's lineage and leaves no token in the
// address bar; the start page's lists stay inside their card at 1,440 px.
//
//   npm run build:explorer && node --test test/e2e/sample.e2e.ts
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import neo4j from 'neo4j-driver';
import type { Page } from 'playwright-core';
import { ARTIFACTS, openHarness, type Harness } from './harness.ts';
import { loadSampleData, type SampleLoaded } from '../../tools/sample-data.ts';
import { signInLink } from '../../tools/stack.ts';

/** The width the first view was judged at (a common laptop screen). */
const WIDE = { width: 1440, height: 900 };

let h: Harness;
let page: Page;
let sample: SampleLoaded;

before(async () => {
  // No remembered panels: a newcomer's page as it first opens.
  h = await openHarness('sample', { panelsOpen: false });
  page = h.page;
  await page.setViewportSize(WIDE);
});

after(async () => {
  await h?.close();
});

/** What the graph holds: aspect rows (every version), relationships, nodes. */
async function graphCounts(): Promise<{ aspects: number; relationships: number; nodes: number }> {
  const driver = neo4j.driver(h.stack.neo4jUri);
  try {
    const { records } = await driver.executeQuery(
      'CALL () { MATCH (a:Aspect) RETURN count(a) AS aspects } CALL () { MATCH ()-[r]->() RETURN count(r) AS relationships } MATCH (n) RETURN aspects, relationships, count(n) AS nodes',
    );
    const r = records[0]!;
    return { aspects: r.get('aspects').toNumber(), relationships: r.get('relationships').toNumber(), nodes: r.get('nodes').toNumber() };
  } finally {
    await driver.close();
  }
}

test('the sample loads through the ingestion service, and loading it again leaves the same graph', async () => {
  const t0 = Date.now();
  sample = await loadSampleData({ ingestionUrl: h.stack.ingestionUrl, token: h.stack.token });
  const first = await graphCounts();
  assert.ok(sample.proposals > 20 && sample.runEvents >= 4, `sample too small: ${JSON.stringify(sample)}`);
  assert.ok(first.aspects >= sample.proposals, `aspect rows ${first.aspects} < proposals ${sample.proposals}`);
  const again = await loadSampleData({ ingestionUrl: h.stack.ingestionUrl, token: h.stack.token });
  assert.deepEqual(again, sample);
  assert.deepEqual(await graphCounts(), first, 'a second load changed the graph');
  h.step({ step: 'sample loaded twice', ms: Date.now() - t0, ...sample, ...first });
});

test("the sign-in link opens the featured dataset's lineage, and the token leaves the address bar", async () => {
  const t0 = Date.now();
  await page.goto(signInLink(h.stack.gatewayUrl, h.stack.token, sample.featuredUrn));
  await page.locator(`g.node.side-centre[data-urn="${sample.featuredUrn}"]`).waitFor({ timeout: 90_000 });
  // Its sources on both platforms, the jobs between them, the charts and the dashboard on it.
  await page.waitForFunction(`document.querySelectorAll('g.node:not(.context)').length >= 12`, undefined, { timeout: 30_000 });
  const drawn = await page
    .locator('g.node')
    .evaluateAll((nodes) => nodes.map((n) => ({ urn: n.getAttribute('data-urn'), type: n.getAttribute('data-type') })));
  for (const type of ['DATASET', 'DATA_JOB', 'CHART', 'DASHBOARD'])
    assert.ok(
      drawn.some((n) => n.type === type),
      `no ${type} drawn: ${JSON.stringify(drawn)}`,
    );
  for (const platform of ['postgres', 'snowflake'])
    assert.ok(
      drawn.some((n) => n.urn?.includes(`dataPlatform:${platform},`)),
      `no ${platform} table drawn`,
    );
  assert.ok(await page.locator('#signin').isHidden(), 'the sign-in dialog is open');

  const address = page.url();
  assert.ok(!address.includes('token='), `the token is still in the address bar: ${address}`);
  assert.ok(!address.includes(h.stack.token), 'the token is still in the address bar');
  assert.equal(new URLSearchParams(new URL(address).hash.slice(1)).get('urn'), sample.featuredUrn, 'the view lost its entity');
  await h.shot('sample-featured-1440');
  // Back does not return to an address holding the token: the link's entry was replaced, not added.
  await page.goBack();
  assert.ok(!page.url().includes('token='), `going back shows the token: ${page.url()}`);
  h.step({
    step: 'sign-in link → featured lineage',
    ms: Date.now() - t0,
    nodes: drawn.length,
    address: address.replace(h.stack.gatewayUrl, ''),
    back: page.url(),
  });
});

test('the plain sign-in link opens the start page, whose lists stay inside their card at 1,440 px', async () => {
  const t0 = Date.now();
  // A new tab, as a click on the banner's link opens one: nothing remembered in sessionStorage.
  const tab = await h.context.newPage();
  try {
    await tab.setViewportSize(WIDE);
    await tab.goto(signInLink(h.stack.gatewayUrl, h.stack.token));
    await tab.locator('#start-recent li').first().waitFor({ timeout: 60_000 });
    assert.equal(new URL(tab.url()).hash, '', `the address keeps a fragment: ${tab.url()}`);
    const box = async (selector: string) => (await tab.locator(selector).boundingBox())!;
    const card = await box('#empty');
    for (const list of ['#start-connected', '#start-recent']) {
      const items = await tab.locator(`${list} .start-item`).evaluateAll((els) =>
        els.map((e) => {
          const r = e.getBoundingClientRect();
          return { left: r.left, right: r.left + e.scrollWidth, text: e.textContent ?? '' };
        }),
      );
      assert.ok(items.length > 0, `${list} is empty`);
      for (const item of items) {
        assert.ok(
          item.left >= card.x && item.right <= card.x + card.width + 0.5,
          `${list}: "${item.text}" runs out of the card (${item.left}–${item.right} against ${card.x}–${card.x + card.width})`,
        );
        assert.ok(!item.text.includes('urn:li:'), `${list}: an entry is named by its urn: ${item.text}`);
      }
    }
    await tab.screenshot({ path: join(ARTIFACTS, 'sample-start-1440.png') });
    h.step({ step: 'plain sign-in link → start page', ms: Date.now() - t0, card: `${Math.round(card.width)} px` });
  } finally {
    await tab.close();
  }
});
