// The boundary lint (.dependency-cruiser.cjs, `npm run lint:layers`) must bite: a small tree with one
// violation per kind of boundary is cruised with the repository's rules, and each is reported.
// The repository itself is cruised by `npm test` before jest runs.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { repoRoot } from '../../tools/neo4j/neo4j-server.ts';

let dir: string;

function file(path: string, text: string): void {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), text);
}

function cruise(...paths: string[]): { ok: boolean; output: string } {
  try {
    const output = execFileSync(
      join(repoRoot, 'node_modules', '.bin', 'depcruise'),
      ['--config', '.dependency-cruiser.cjs', '--output-type', 'err', ...paths],
      { cwd: dir, encoding: 'utf8' },
    );
    return { ok: true, output };
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string };
    return { ok: false, output: `${err.stdout ?? ''}${err.stderr ?? ''}` };
  }
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'layers-'));
  copyFileSync(join(repoRoot, '.dependency-cruiser.cjs'), join(dir, '.dependency-cruiser.cjs'));
  file('package.json', '{"type": "module"}');
  file('catalog/src/store/store.ts', 'export const store = 1;\n');
  file('catalog/src/model/urn.ts', 'export const urn = 1;\n');
  file('catalog/src/model/index.ts', "export * from './urn.ts';\n");
  file('catalog/src/read/reader.ts', 'export const reader = 1;\n');
  file('gateway/src/app.ts', 'export const app = 1;\n');
  file('bench/generate.ts', 'export const generate = 1;\n');
  file('bench/lib/rng.ts', 'export const rng = 1;\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('a clean tree passes', () => {
  file(
    'catalog/src/write/ok.ts',
    "import { store } from '../store/store.ts';\nimport { urn } from '../model/index.ts';\nexport const ok = store + urn;\n",
  );
  expect(cruise('catalog')).toMatchObject({ ok: true });
});

test("a door may hold the store handle's type", () => {
  file('lineage-service/src/typed.ts', "import type { store } from '../../catalog/src/store/store.ts';\nexport type X = typeof store;\n");
  const result = cruise('lineage-service/src/typed.ts');
  expect(result.output).not.toContain('doors-call-the-domain');
  rmSync(join(dir, 'lineage-service/src/typed.ts'));
});

test("a tool may share the bench's helpers", () => {
  file('tools/profile.ts', "import { rng } from '../bench/lib/rng.ts';\nexport const x = rng;\n");
  const result = cruise('tools/profile.ts');
  expect(result).toMatchObject({ ok: true });
  rmSync(join(dir, 'tools/profile.ts'));
});

// The circle the explorer had: a state module that imports, for a type, a module that imports it back.
test.each(['explorer/src', 'bench', 'tools', 'ingestion-service/src', 'catalog/src/read'])(
  'no-circular is reported for a circle in %s, a type-only import included',
  (folder) => {
    file(
      `${folder}/state.ts`,
      "import type { Trace } from './trace.ts';\nexport const DIRECTIONS = ['UP'];\nexport type State = { trace: Trace };\n",
    );
    file(`${folder}/trace.ts`, "import { DIRECTIONS } from './state.ts';\nexport type Trace = { sides: typeof DIRECTIONS };\n");
    const result = cruise(folder);
    expect(result.ok).toBe(false);
    expect(result.output).toContain('no-circular');
    expect(result.output).toContain(`${folder}/state.ts`);
    rmSync(join(dir, folder, 'state.ts'));
    rmSync(join(dir, folder, 'trace.ts'));
  },
);

test.each([
  ['model-is-pure', 'catalog/src/model/leak.ts', "import { store } from '../store/store.ts';\nexport const x = store;\n"],
  ['write-beside-read', 'catalog/src/write/reads.ts', "import { reader } from '../read/reader.ts';\nexport const x = reader;\n"],
  [
    'services-use-catalog-entries',
    'lineage-service/src/deep.ts',
    "import { urn } from '../../catalog/src/model/urn.ts';\nexport const x = urn;\n",
  ],
  ['page-has-no-node', 'explorer/src/page.ts', "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n"],
  ['browser-set-has-no-node', 'catalog/src/model/errors.ts', "import { createHash } from 'node:crypto';\nexport const x = createHash;\n"],
  ['catalog-below-services', 'catalog/src/read/door.ts', "import { app } from '../../../gateway/src/app.ts';\nexport const y = app;\n"],
  [
    'doors-call-the-domain',
    'ingestion-service/src/cypher-door.ts',
    "import { store } from '../../catalog/src/store/store.ts';\nexport const x = store;\n",
  ],
  ['tools-use-bench-lib', 'tools/profile.ts', "import { generate } from '../bench/generate.ts';\nexport const x = generate;\n"],
])('%s is reported', (rule, path, text) => {
  file(path, text);
  const result = cruise(path);
  expect(result.ok).toBe(false);
  expect(result.output).toContain(rule);
  rmSync(join(dir, path));
});
