// Every Cypher statement lives in cypher/<area>/<name>.cypher and is run by name. Files are read
// once at start; a name the code uses that has no file fails at load, not at first use.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const cypherDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'cypher');

/** The statements the code runs. Adding a name here without a file is caught by loadCypher. */
export const statementNames = [
  'aspects/lock-entities',
  'aspects/lock-and-read',
  'aspects/fetch-latest',
  'aspects/fetch-versions',
  'aspects/fetch-one-version',
  'aspects/fetch-entity-latest',
  'aspects/create-rows',
  'aspects/update-rows',
  'aspects/delete-rows',
  'aspects/count-latest',
  'aspects/bump-generation',
  'entities/exist',
  'entities/merge-nodes',
  'entities/set-search-fields',
  'entities/finish-hard-delete',
  'edges/delete-by-key',
  'edges/merge',
  'edges/owned-by',
  'auth/token-active',
  'auth/roles-of',
  'lineage/reach-down-1',
  'lineage/reach-down-2',
  'lineage/reach-down-max',
  'lineage/reach-up-1',
  'lineage/reach-up-2',
  'lineage/reach-up-max',
  'lineage/select-page-down-1',
  'lineage/select-page-down-2',
  'lineage/select-page-down-max',
  'lineage/select-page-up-1',
  'lineage/select-page-up-2',
  'lineage/select-page-up-max',
  'lineage/select-counts-down-1',
  'lineage/select-counts-down-2',
  'lineage/select-counts-down-max',
  'lineage/select-counts-up-1',
  'lineage/select-counts-up-2',
  'lineage/select-counts-up-max',
  'lineage/facet-values',
  'lineage/hop-down',
  'lineage/hop-up',
  'lineage/neighbours-down',
  'lineage/neighbours-up',
  'lineage/paths-down',
  'lineage/paths-up',
  'lineage/vias-down',
  'lineage/vias-up',
  'lineage/generation',
  'restore/scan-rows',
  'restore/count-rows',
  'restore/node-fields',
  'restore/scan-nodes',
  'restore/scan-owners',
  'restore/delete-orphans',
  'restore/edges-leaving',
  'restore/delete-unowned',
  'search/entities',
  'relationships/related-incoming',
  'relationships/related-outgoing',
  'relationships/lineage-scroll-anchored',
  'relationships/lineage-scroll-all',
] as const;

export type StatementName = (typeof statementNames)[number];

export type Statements = Readonly<Record<StatementName, string>> & { readonly all: ReadonlyMap<string, string> };

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? walk(p) : p.endsWith('.cypher') ? [p] : [];
  });
}

/** Loads every .cypher file (schema files included, under their own names). */
export function loadCypher(dir = cypherDir): Statements {
  const all = new Map<string, string>();
  for (const file of walk(dir)) {
    const name = relative(dir, file).replace(/\.cypher$/, '');
    all.set(name, readFileSync(file, 'utf8'));
  }
  const missing = statementNames.filter((n) => !all.has(n));
  if (missing.length) throw new Error(`Missing Cypher files in ${dir}: ${missing.join(', ')}`);
  const named = Object.fromEntries(statementNames.map((n) => [n, all.get(n)!])) as Record<StatementName, string>;
  return Object.freeze({ ...named, all });
}

/** Splits a file holding several statements (the schema) on semicolons at line ends. */
export function splitStatements(text: string): string[] {
  return text
    .split(/;\s*$/m)
    .map((s) => s.replace(/^\s*\/\/.*$/gm, '').trim())
    .filter((s) => s.length > 0);
}
