// End-to-end: large neighbourhoods in the explorer (test/e2e/harness.ts). 500 downstream of one
// dataset are drawn as groups of alike siblings (explorer/src/grouping.ts) that open and close by
// mouse and keyboard; Fit keeps names legible; the first view of a 100,000-entity reach is paged and
// timed. Screenshots 09–14 and the timings go to test-artifacts/e2e/ (large-report.md).
//
//   npm run build:explorer && node --test --test-concurrency=1 test/e2e/large.e2e.ts
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { axeViolations, DESKTOP, NARROW, openHarness, signIn, type Harness } from './harness.ts';
import { seedWideGraph } from './seed.ts';

/** The smallest rendered text size (px) a name may have after Fit: below it, it is no longer read. */
const LEGIBLE_PX = 9;

let h: Harness;
let page: Page;
let wide: { root: string; count: number };

before(async () => {
  h = await openHarness('large');
  page = h.page;
  await signIn(h);
});

after(async () => {
  await h?.close();
});

type Timings = Record<string, number>;

// Code run in the page is written as expression strings (playwright evaluates them as they are): this
// file is type-checked without the DOM library.
const DRAW_SETTLED = `document.querySelector('#canvas')?.getAttribute('aria-busy') !== 'true'`;
const timingsNow = async (): Promise<Timings> => page.evaluate('window.__explorer.timings') as Promise<Timings>;
const setHash = (hash: string) => page.evaluate(`location.hash = ${JSON.stringify(hash)}`);
const focusedAttr = (name: string) =>
  page.evaluate(`document.activeElement?.getAttribute(${JSON.stringify(name)}) ?? null`) as Promise<string | null>;

/**
 * Runs `action` and waits for the draw it causes to finish (a new #graph-host data-ready, the page
 * no longer busy). Returns the wall time from the action's start and the page's own timings.
 */
async function afterDraw(action: () => Promise<unknown>, timeout = 60_000): Promise<Timings> {
  const before = await page.locator('#graph-host').getAttribute('data-ready');
  const t0 = Date.now();
  await action();
  const ready = `document.querySelector('#graph-host')?.getAttribute('data-ready')`;
  await page.waitForFunction(`${ready} != null && ${ready} !== ${JSON.stringify(before)} && ${DRAW_SETTLED}`, undefined, {
    timeout,
    polling: 'raf',
  });
  return { ...(await timingsNow()), wallMs: Date.now() - t0 };
}

async function search(text: string): Promise<void> {
  await page.locator('#search').fill(text);
  await page.locator('#search').press('Enter');
}

const graphAttr = async (name: string) => Number(await page.locator('#graph').getAttribute(name));
const group = (degree: number) => page.locator(`g.group[data-degree="${degree}"]`);
const labelOf = (l: Locator) => l.getAttribute('aria-label');
const platformLabel = () => new RegExp(`on ${h.platform} at`, 'i');

/**
 * The size the first text matching `selector` is drawn at on screen: its CSS font size times the
 * SVG's scale (the svg's rendered width over its viewBox width), and the height of its box as a
 * cross-check.
 */
async function renderedText(selector: string): Promise<{ fontPx: number; boxPx: number }> {
  return page.evaluate(`(() => {
    const el = document.querySelector(${JSON.stringify(selector)});
    const svg = el.ownerSVGElement;
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    return { fontPx: parseFloat(getComputedStyle(el).fontSize) * scale, boxPx: el.getBoundingClientRect().height };
  })()`) as Promise<{ fontPx: number; boxPx: number }>;
}

type CanvasExtent = { sw: number; cw: number; sh: number; ch: number };
const canvasExtent = () =>
  page.evaluate(`(() => { const c = document.querySelector('#canvas');
  return { sw: c.scrollWidth, cw: c.clientWidth, sh: c.scrollHeight, ch: c.clientHeight }; })()`) as Promise<CanvasExtent>;
/** An attribute of every element matching `selector`, in document order. */
const attrOfAll = (selector: string, name: string) =>
  page.evaluate(
    `[...document.querySelectorAll(${JSON.stringify(selector)})].map((e) => e.getAttribute(${JSON.stringify(name)}))`,
  ) as Promise<Array<string | null>>;

async function assertLegible(selector: string, what: string): Promise<{ fontPx: number; boxPx: number }> {
  const r = await renderedText(selector);
  assert.ok(r.fontPx >= LEGIBLE_PX, `${what}: drawn at ${r.fontPx.toFixed(1)} px, under ${LEGIBLE_PX} px`);
  assert.ok(r.boxPx >= LEGIBLE_PX, `${what}: its box is ${r.boxPx.toFixed(1)} px high`);
  return r;
}

test('500 downstream: the capped first view groups the loaded siblings and offers "N more"', async () => {
  wide = await seedWideGraph(h.door, h.platform, 20, 24);
  assert.equal(wide.count, 500);
  const firstView = await afterDraw(() => search(wide.root));
  await page.locator(`g.node.side-centre[data-urn="${wide.root}"]`).waitFor();
  const more = page.locator('g.more[data-more="DOWNSTREAM"]');
  assert.match((await more.textContent()) ?? '', /450 more/);
  assert.equal(await graphAttr('data-nodes'), 51);
  // The 50 loaded are grouped: far fewer boxes than entities, each group a button saying what it holds.
  const drawn = await graphAttr('data-drawn');
  assert.ok(drawn < 10, `${drawn} boxes drawn for 51 entities`);
  const labels = await attrOfAll('g.group', 'aria-label');
  assert.ok(labels.length >= 1);
  for (const l of labels) assert.match(l ?? '', /^DATASET .+: \d+ datasets on .+ at degree [12] downstream, expand$/);
  await h.shot('09-capped-first-view');
  // "N more" loads a screenful (250, explorer/src/navigation.ts MORE_PAGE) into the same picture,
  // not another first-view page of 50.
  await afterDraw(() => page.locator('.status .more-btn[data-more="DOWNSTREAM"]').click());
  assert.equal(await graphAttr('data-nodes'), 301);
  assert.match(await page.locator('[data-side-status="DOWNSTREAM"]').innerText(), /Downstream: 300 of 500/);
  assert.match((await page.locator('g.more[data-more="DOWNSTREAM"]').textContent()) ?? '', /200 more/);
  h.step({ step: 'first view (cap 50 per side, 500 downstream)', ...firstView });
});

test('all 500 at page size 500: two groups drawn instead of 500 boxes', async () => {
  const full = await afterDraw(() => page.locator('#page-size').selectOption('500'));
  assert.equal(full.nodes, 501);
  assert.equal(await graphAttr('data-nodes'), 501);
  // The centre, "20 datasets" one hop out and "480 datasets" two hops out, one edge between each.
  assert.equal(await graphAttr('data-drawn'), 3);
  assert.equal(full.drawn, 3);
  assert.equal(await page.locator('g.node').count(), 1);
  assert.match(
    (await labelOf(group(1))) ?? '',
    /^DATASET \S+ 20 datasets 1 hop · click to open: 20 datasets on .+ at degree 1 downstream, expand$/,
  );
  assert.match(
    (await labelOf(group(2))) ?? '',
    /^DATASET \S+ 480 datasets 2 hops · click to open: 480 datasets on .+ at degree 2 downstream, expand$/,
  );
  assert.match((await labelOf(group(2))) ?? '', platformLabel());
  assert.equal(await group(2).getAttribute('role'), 'button');
  // Focusable, inside a graph that is one Tab stop (roving tabindex: the arrow keys move inside).
  assert.match((await group(2).getAttribute('tabindex')) ?? '', /^(0|-1)$/);
  assert.equal(await page.locator('#graph-host [tabindex="0"]').count(), 1);
  assert.equal((await group(2).locator('text.name').textContent())?.trim(), '480 datasets');
  assert.equal(await page.locator('path.edge').count(), 2);
  await h.shot('10-500-nodes-grouped');
  // Two more full draws (direction off and on again) so the report shows the spread on a shared machine.
  const again: Timings[] = [];
  for (let i = 0; i < 2; i++) {
    await afterDraw(() => page.locator('#dir-downstream').uncheck());
    again.push(await afterDraw(() => page.locator('#dir-downstream').check()));
    assert.equal(again.at(-1)!.nodes, 501);
  }
  h.step({ step: '500-node neighbourhood, grouped', ...full });
  again.forEach((r, i) => h.step({ step: `500-node redraw ${i + 2}`, ...r }));
  h.log(`500 nodes grouped: ${JSON.stringify(full)}; again ${JSON.stringify(again)}`);
});

test('Fit on the grouped 500 keeps names legible', async () => {
  await page.locator('#zoom-fit').click();
  const name = await assertLegible('g.group[data-degree="2"] text.name', "the 480 group's label after Fit");
  await assertLegible('g.node.side-centre text.name', "the centre's name after Fit");
  // The grouped picture is small enough to show whole.
  const canvas = await canvasExtent();
  assert.ok(canvas.sw <= canvas.cw + 1 && canvas.sh <= canvas.ch + 1, `Fit left the grouped picture scrolling: ${JSON.stringify(canvas)}`);
  await h.shot('11-500-nodes-fit');
  h.step({ step: 'Fit, grouped 500', groupLabelPx: name.fontPx.toFixed(1) });
});

test('clicking a group draws its 480 members; Fit fits the width legibly; its control closes them again', async () => {
  const opened = await afterDraw(() => group(2).click());
  assert.equal(await page.locator('g.node').count(), 481);
  assert.equal(await graphAttr('data-drawn'), 482);
  assert.equal(await graphAttr('data-nodes'), 501);
  const control = page.locator('g.group-collapse');
  assert.match((await labelOf(control)) ?? '', /^− 480 datasets · collapse: 480 datasets on .+ at degree 2 downstream$/);
  // Groups, their open members and the collapse control: no serious accessibility problem.
  const serious = (await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(
    serious.map(
      (v) =>
        `${v.id}: ${v.help} — ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join('; ')}`,
    ),
    [],
  );
  assert.equal(await control.getAttribute('aria-expanded'), 'true');
  // Every member has one edge, from the group of their 20 parents.
  assert.equal(await page.locator('path.edge').count(), 1 + 480);
  await page.locator('#zoom-fit').click();
  const name = await assertLegible('g.node[data-degree="2"] text.name', "a member's name after Fit");
  // 481 boxes do not fit one screen legibly: Fit fits the width and the column scrolls.
  const canvas = await canvasExtent();
  assert.ok(canvas.sw <= canvas.cw + 1, `Fit did not fit the width: ${JSON.stringify(canvas)}`);
  assert.ok(canvas.sh > canvas.ch * 2, `expected a scrolling column: ${JSON.stringify(canvas)}`);
  await control.scrollIntoViewIfNeeded();
  await h.shot('12-group-expanded');
  const closed = await afterDraw(() => control.click());
  assert.equal(await graphAttr('data-drawn'), 3);
  assert.equal(await page.locator('g.group-collapse').count(), 0);
  assert.equal(await group(2).getAttribute('data-count'), '480');
  h.step({ step: 'open the 480 group', ...opened, memberNamePx: name.fontPx.toFixed(1) });
  h.step({ step: 'close it again', ...closed });
});

test('keyboard: an arrow key reaches a group, Enter opens it (its children regroup per parent), Enter on its control closes it', async () => {
  await page.locator('g.node.side-centre').focus();
  // The graph is one Tab stop; inside it the arrow keys move (right of the centre: degree 1).
  await page.keyboard.press('ArrowRight');
  const focused = { group: await focusedAttr('data-group'), degree: await focusedAttr('data-degree') };
  assert.ok(focused.group, 'ArrowRight from the centre did not reach a group');
  assert.equal(focused.degree, '1');
  await afterDraw(() => page.keyboard.press('Enter'));
  // The 20 children are boxes now, and their 480 children twenty groups of 24, one per parent.
  assert.equal(await page.locator('g.node[data-degree="1"]').count(), 20);
  assert.deepEqual([...new Set(await attrOfAll('g.group[data-degree="2"]', 'data-count'))], ['24']);
  assert.equal(await group(2).count(), 20);
  assert.equal(await page.locator('path.edge').count(), 20 + 20);
  // Focus moved to the control that now stands for the group, so Enter again closes it.
  assert.equal(await focusedAttr('class'), 'group-collapse side-downstream');
  assert.equal(await focusedAttr('data-group'), focused.group);
  await afterDraw(() => page.keyboard.press('Enter'));
  assert.equal(await graphAttr('data-drawn'), 3);
  assert.equal(await focusedAttr('data-group'), focused.group);
});

test('narrow screen: the grouped 500 at 390×844, Fit shows the whole picture across', async () => {
  await page.setViewportSize(NARROW);
  try {
    await page.locator('#canvas').scrollIntoViewIfNeeded();
    await page.locator('#zoom-fit').click();
    assert.equal(await graphAttr('data-drawn'), 3);
    // Fit shows both ends across (explorer/src/viewport.ts): at 390 px that takes precedence over
    // the 9 px legibility floor kept at desktop widths; the size reached is reported, + zooms in.
    const canvas = await canvasExtent();
    assert.ok(canvas.sw <= canvas.cw + 1, `Fit at 390 px left the picture scrolling across: ${JSON.stringify(canvas)}`);
    for (const sel of ['g.node.side-centre', 'g.group[data-degree="1"]', 'g.group[data-degree="2"]']) {
      const box = (await page.locator(sel).boundingBox())!;
      const view = (await page.locator('#canvas').boundingBox())!;
      assert.ok(box.x >= view.x - 1 && box.x + box.width <= view.x + view.width + 1, `${sel} is not across the view after Fit`);
    }
    const label = await renderedText('g.group[data-degree="2"] text.name');
    h.step({ step: 'Fit at 390 px, grouped 500', groupLabelPx: label.fontPx.toFixed(1) });
    await h.shot('14-500-grouped-narrow');
  } finally {
    await page.setViewportSize(DESKTOP);
  }
});

test('100k reach: the paged first view draws within 5 s of navigating to it', async () => {
  let t0 = Date.now();
  const huge = await seedWideGraph(h.door, h.platform, 100, 999, 'huge');
  const seedMs = Date.now() - t0;
  h.log(`seeded ${huge.count} downstream entities in ${seedMs} ms`);
  h.step({ step: 'seed the 100k reach', entities: huge.count, ms: seedMs });
  await afterDraw(() => page.locator('#page-size').selectOption('50'));
  // In-page navigation, as a click on a node or the search does it: the hash names the new centre.
  const hash = `#urn=${encodeURIComponent(huge.root)}`;
  const first = await afterDraw(() => setHash(hash));
  await page.locator(`g.node.side-centre[data-urn="${huge.root}"]`).waitFor();
  assert.equal(first.nodes, 51);
  assert.equal(await graphAttr('data-nodes'), 51);
  assert.match(await page.locator('[data-side-status="DOWNSTREAM"]').innerText(), new RegExp(`Downstream: 50 of ${huge.count}`));
  assert.match((await page.locator('g.more[data-more="DOWNSTREAM"]').textContent()) ?? '', new RegExp(`${huge.count - 50} more`));
  assert.ok((await graphAttr('data-drawn')) < 10);
  await h.shot('13-100k-first-view');
  // The target is 2 s; the bound is looser so a busy 2-core CI machine (other suites, Neo4j, the
  // browser all on it) does not fail it by noise. The measured value is in the report either way.
  h.step({ step: '100k reach, first view (navigation → finished draw)', ...first });
  h.log(`100k first view: ${JSON.stringify(first)}`);
  assert.ok(first.wallMs! < 5_000, `first view of the 100k reach took ${first.wallMs} ms`);
  // Again, now that the catalog has walked this reach once (away and back).
  await afterDraw(() => setHash(`#urn=${encodeURIComponent(wide.root)}`));
  const again = await afterDraw(() => setHash(hash));
  h.step({ step: '100k reach, first view again', ...again });
  // And the same link opened by a fresh page load (the tab keeps its token).
  t0 = Date.now();
  await page.reload();
  await page.waitForFunction(`document.querySelector('#graph-host')?.getAttribute('data-ready') != null && ${DRAW_SETTLED}`, undefined, {
    timeout: 60_000,
    polling: 'raf',
  });
  const cold: Timings = { ...(await timingsNow()), wallMs: Date.now() - t0 };
  assert.equal(cold.nodes, 51);
  h.step({ step: '100k reach, opened as a link (page load → finished draw)', ...cold });
});
