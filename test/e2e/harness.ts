// What every end-to-end file shares: a whole stack (tools/stack.ts: throwaway Neo4j, ingestion
// service, lineage subgraph, gateway — which serves the explorer page at /), Debian's headless
// Chromium (playwright-core) driving the page, screenshots in test-artifacts/e2e/ and a report step
// list written when the file ends. Each *.e2e.ts file opens one harness in `before` and closes it in
// `after`; node --test runs the files one after another.
//
//   E2E_NEO4J_URI=bolt://… npm run test:e2e   reuse a running Neo4j (entities on a unique platform)
//   CHROMIUM_PATH=/path/to/chromium            another browser binary
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { startStack, type RunningStack } from '../../tools/stack.ts';
import { repoRoot } from '../../tools/neo4j/neo4j-server.ts';
import { DEFAULT_EXPLORER_DIST } from '../../explorer/serve.ts';
import type { FrontDoor } from './seed.ts';

export const ARTIFACTS = join(repoRoot, 'test-artifacts', 'e2e');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const DESKTOP = { width: 1280, height: 800 };
/** The narrow layout the page must stay usable at (a phone held upright). */
export const NARROW = { width: 390, height: 844 };

export interface Harness {
  stack: RunningStack;
  door: FrontDoor;
  page: Page;
  context: BrowserContext;
  /** The explorer's address, ending in `/`. */
  pageUrl: string;
  /** A platform name unique to this run when Neo4j is shared, else `hive`. */
  platform: string;
  /** Where downloads land. */
  downloads: string;
  shot(name: string): Promise<void>;
  step(entry: Record<string, unknown>): void;
  log(line: string): void;
  close(): Promise<void>;
}

/**
 * Starts the stack and the browser for one e2e file named `suite` (its report is
 * test-artifacts/e2e/<suite>-report.{json,md}; screenshots keep the names the tests give them).
 */
export async function openHarness(suite: string, opts: { panelsOpen?: boolean } = {}): Promise<Harness> {
  const log = (line: string) => process.stdout.write(`[e2e ${suite}] ${line}\n`);
  mkdirSync(ARTIFACTS, { recursive: true });
  assert.ok(
    existsSync(join(DEFAULT_EXPLORER_DIST, 'index.html')),
    'explorer/dist is missing: run `npm run build:explorer` (npm run test:e2e does)',
  );
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: run tools/install-chromium.sh`);
  const report: { suite: string; started: string; chromium?: string; steps: Array<Record<string, unknown>> } = {
    suite,
    started: new Date().toISOString(),
    steps: [],
  };
  const shared = process.env.E2E_NEO4J_URI;
  // Never the developer's NEO4J_URI by accident: the seeds write literal hive urns.
  delete process.env.NEO4J_URI;
  const platform = shared ? `e2e${Date.now().toString(36)}` : 'hive';
  const t0 = Date.now();
  let stack: RunningStack | undefined;
  stack = await startStack({
    ephemeral: true,
    ...(shared ? { neo4jUri: shared } : {}),
    serviceOutput: 'files',
    tokenName: `explorer e2e ${suite}`,
    tokenDuration: 'ONE_HOUR',
    log,
    onServiceExit: (name, code) => log(`${name} exited (${code}); see ${stack?.logDir ?? 'the service logs'}`),
  });
  assert.deepEqual(stack.missing, [], `services missing from the tree: ${stack.missing.join(', ')}`);
  log(`stack up in ${Date.now() - t0} ms (gateway ${stack.gatewayUrl}, logs in ${stack.logDir})`);
  // The gateway serves the page at `/` (explorer/serve.ts); a build missing from the tree fails here.
  const home = await fetch(`${stack.gatewayUrl}/`);
  assert.ok(
    home.ok && (await home.text()).includes('Lineage explorer'),
    `the gateway does not serve the explorer at / (HTTP ${home.status})`,
  );

  const userDataDir = mkdtempSync(join(tmpdir(), 'explorer-chromium-'));
  const downloads = mkdtempSync(join(tmpdir(), 'explorer-downloads-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: DESKTOP,
    acceptDownloads: true,
    downloadsPath: downloads,
    // The page's CSP forbids eval; playwright's string predicates (waitForFunction) need it.
    bypassCSP: true,
  });
  report.chromium = context.browser()?.version() ?? 'unknown';
  // The side panels start closed under 1,600 px (explorer/src/panels.ts); suites written for the page
  // with both panels open get that layout remembered, as a user who opened them would have it.
  if (opts.panelsOpen ?? true) {
    await context.addInitScript(
      `if (!localStorage.getItem('lineage-explorer.panels')) localStorage.setItem('lineage-explorer.panels', '{"controls":true,"impact":true}')`,
    );
  }
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (e) => log(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') log(`console: ${m.text()}`);
  });

  const running = stack;
  return {
    stack: running,
    door: { baseUrl: running.gatewayUrl, token: running.token },
    page,
    context,
    pageUrl: `${running.gatewayUrl}/`,
    platform,
    downloads,
    async shot(name: string) {
      await page.screenshot({ path: join(ARTIFACTS, `${name}.png`) });
      log(`screenshot ${name}.png`);
    },
    step(entry) {
      report.steps.push(entry);
    },
    log,
    async close() {
      await context.close().catch(() => undefined);
      rmSync(userDataDir, { recursive: true, force: true });
      rmSync(downloads, { recursive: true, force: true });
      await running.stop();
      writeFileSync(join(ARTIFACTS, `${suite}-report.json`), `${JSON.stringify(report, null, 2)}\n`);
      const lines = [
        `# Lineage explorer end-to-end report: ${suite}`,
        '',
        `- started: ${report.started}`,
        `- browser: Chromium ${report.chromium ?? '?'} (headless, ${DESKTOP.width}×${DESKTOP.height} unless a step says otherwise)`,
        `- page served by the gateway at /`,
        '',
        '| step | result |',
        '|---|---|',
        ...report.steps.map(
          (s) =>
            `| ${String(s.step)} | ${Object.entries(s)
              .filter(([k]) => k !== 'step')
              .map(([k, v]) => `${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
              .join('; ')} |`,
        ),
        '',
      ];
      writeFileSync(join(ARTIFACTS, `${suite}-report.md`), lines.join('\n'));
    },
  };
}

/** Signs the page in with the harness's token (the sign-in flow itself is tested in explorer.e2e.ts). */
export async function signIn(h: Harness): Promise<void> {
  await h.page.goto(h.pageUrl);
  await h.page.locator('#token').fill(h.stack.token);
  await h.page.locator('#signin-submit').click();
  await h.page.locator('#signin').waitFor({ state: 'hidden' });
}

export interface AxeViolation {
  id: string;
  impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  help: string;
  nodes: Array<{ target: string[] }>;
}

/** axe-core (the npm package, injected into the page) run over the document as it stands, or one part of it. */
export async function axeViolations(page: Page, selector?: string): Promise<AxeViolation[]> {
  await page.addScriptTag({ path: createRequire(import.meta.url).resolve('axe-core/axe.min.js') });
  const context = selector ? JSON.stringify({ include: [[selector]] }) : 'document';
  // A string, not a function: this file is compiled without the DOM's types.
  return page.evaluate(`(async () => {
    const result = await window.axe.run(${context}, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
  })()`) as Promise<AxeViolation[]>;
}
