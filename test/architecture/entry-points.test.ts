// A layer's entry point exports by name what other layers and services import through it
// (docs/CONTRIBUTING.md §Layers): an `export *` would publish every name of a module again, the
// ~360-name surface issue 25 removed. dependency-cruiser sees imports, not export forms, so this
// reads the entry points themselves.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../tools/neo4j/neo4j-server.ts';

const catalogLayers = readdirSync(join(repoRoot, 'catalog/src'), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => `catalog/src/${d.name}/index.ts`)
  .filter((p) => existsSync(join(repoRoot, p)));
const entryPoints = [...catalogLayers, 'service-kit/src/index.ts'];

test('every catalog layer and service-kit has an entry point', () => {
  expect(catalogLayers.length).toBeGreaterThanOrEqual(6);
});

test.each(entryPoints)('%s exports by name (no export *)', (path) => {
  const text = readFileSync(join(repoRoot, path), 'utf8');
  const star = text
    .split('\n')
    .map((line, i) => ({ line, n: i + 1 }))
    .filter(({ line }) => /^\s*export\s+\*/.test(line));
  expect(star.map(({ line, n }) => `${path}:${n}: ${line}`)).toEqual([]);
});
