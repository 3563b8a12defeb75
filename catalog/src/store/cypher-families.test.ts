// A template family (cypher/README.md §Families) is one file expanded per direction, depth bound and
// walk kind. Callers pick an expansion by the request's direction and depth and read its rows the same
// way whichever they got, so the expansions must stay in step: the same parameters (a windowed walk adds
// the time window's), the same columns in the same order, the same Cypher apart from where the walk
// points and how far. The checks below say what differs, and are shown to catch a variant edited alone.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cypherDir, loadCypher, templateFamilies, type Expansion } from './cypher.ts';

const statements = loadCypher();

const codeLines = (text: string) => text.split('\n').filter((line) => !/^\s*\/\//.test(line));

/** The `$parameters` a statement's Cypher uses (comments aside). */
function parametersOf(text: string): string[] {
  return [
    ...new Set(
      [
        ...codeLines(text)
          .join('\n')
          .matchAll(/\$(\w+)/g),
      ].map((m) => m[1]!),
    ),
  ].sort();
}

/** The parameters the header's `// Params:` lines name (the first line and its indented continuations). */
function declaredParameters(text: string): string[] {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.startsWith('// Params:'));
  if (start < 0) return [];
  let end = start + 1;
  while (end < lines.length && /^\/\/ {2,}\S/.test(lines[end]!)) end++;
  return [
    ...new Set(
      [
        ...lines
          .slice(start, end)
          .join('\n')
          .matchAll(/\$(\w+)/g),
      ].map((m) => m[1]!),
    ),
  ].sort();
}

/** The columns of a statement's last RETURN, in order: each item's alias, or the item itself. */
function returnedColumns(text: string): string[] {
  const code = codeLines(text).join('\n');
  const at = [...code.matchAll(/\bRETURN\s+(DISTINCT\s+)?/g)].at(-1);
  if (!at) return [];
  const tail = code.slice(at.index + at[0].length).split(/\n\s*(?:ORDER BY|LIMIT|SKIP)\b/)[0]!;
  const items: string[] = [];
  let depth = 0;
  let quote = '';
  let item = '';
  for (const ch of tail) {
    if (quote) {
      if (ch === quote) quote = '';
    } else if (ch === "'" || ch === '"' || ch === '`') quote = ch;
    else if ('([{'.includes(ch)) depth++;
    else if (')]}'.includes(ch)) depth--;
    else if (ch === ',' && depth === 0) {
      items.push(item);
      item = '';
      continue;
    }
    item += ch;
  }
  items.push(item);
  return items.map((i) => /\bAS\s+(\w+)\s*$/.exec(i.trim())?.[1] ?? i.trim());
}

/** The Cypher with what the template language varies per expansion undone: arrowheads and the literal bound. */
const pointless = (text: string) =>
  codeLines(text)
    .join('\n')
    .replaceAll('<-[', '-[')
    .replaceAll(']->', ']-')
    .replace(/\*1\.\.\d+\]/g, '*1..N]');

/** The parameters of the time window's edge test, which only -windowed expansions of a bounded family may use. */
const windowParameters = parametersOf(readFileSync(join(cypherDir, 'lineage/edge-in-window.cypher'), 'utf8'));

/** Where the expansions of one family are out of step; empty when they are in step. */
function driftOf(family: string, expansions: readonly Expansion[], textOf: (name: string) => string): string[] {
  const problems: string[] = [];
  const [first] = expansions;
  if (!first) return [`${family}: no expansions`];
  const firstOfKind = (e: Expansion) => expansions.find((x) => x.windowed === e.windowed)!;
  const twin = (e: Expansion) => expansions.find((x) => x.direction === e.direction && x.bound === e.bound && x.windowed === false);
  const columns = returnedColumns(textOf(first.name));
  if (!columns.length) problems.push(`${first.name}: returns no columns`);
  const used = new Set<string>();
  for (const e of expansions) {
    const text = textOf(e.name);
    const params = parametersOf(text);
    for (const p of params) used.add(p);
    const reference = firstOfKind(e);
    const same = parametersOf(textOf(reference.name));
    if (params.join() !== same.join())
      problems.push(`${e.name}: parameters ${params.join(', ')}; ${reference.name} has ${same.join(', ')}`);
    const unwindowed = e.windowed === true ? twin(e) : undefined;
    if (unwindowed) {
      const expected = [...new Set([...parametersOf(textOf(unwindowed.name)), ...windowParameters])].sort();
      if (params.join() !== expected.join())
        problems.push(`${e.name}: parameters ${params.join(', ')}; expected ${unwindowed.name}'s and the window's: ${expected.join(', ')}`);
    }
    if (e.windowed === false) {
      const leaked = params.filter((p) => windowParameters.includes(p));
      if (leaked.length) problems.push(`${e.name}: a walk without a window uses ${leaked.join(', ')}`);
    }
    const cols = returnedColumns(text);
    if (cols.join() !== columns.join()) problems.push(`${e.name}: returns ${cols.join(', ')}; ${first.name} returns ${columns.join(', ')}`);
    if (pointless(text) !== pointless(textOf(reference.name)))
      problems.push(`${e.name}: differs from ${reference.name} beyond the walk's direction and bound`);
  }
  const declared = declaredParameters(textOf(first.name));
  const sorted = [...used].sort();
  if (declared.join() !== sorted.join())
    problems.push(`${family}: its header declares ${declared.join(', ')}; its expansions use ${sorted.join(', ')}`);
  return problems;
}

const families = [...templateFamilies];
const textOf = (name: string) => statements.all.get(name) ?? '';

test.each(families.map(([family, expansions]) => [family, expansions] as const))('%s: every expansion in step', (family, expansions) => {
  expect(driftOf(family, expansions, textOf)).toEqual([]);
});

test('the family list covers every template of cypher/lineage, and a family expands per direction (and bound and walk)', () => {
  expect(families.map(([f]) => f).sort()).toEqual([
    'lineage/fanout',
    'lineage/hop',
    'lineage/hop-nodes',
    'lineage/neighbours',
    'lineage/paths',
    'lineage/reach',
    'lineage/select-counts',
    'lineage/select-counts-judged',
    'lineage/select-cut',
    'lineage/select-page',
    'lineage/vias',
  ]);
  expect(templateFamilies.get('lineage/reach')!.map((e) => e.name)).toHaveLength(2 * 3 * 2);
  expect(templateFamilies.get('lineage/paths')!.map((e) => e.name)).toEqual(['lineage/paths-down', 'lineage/paths-up']);
  // What the checks read off a statement: a subquery's RETURN is not the statement's.
  expect(returnedColumns(textOf('lineage/fanout-down-1'))).toEqual(['source', 'reach']);
  expect(returnedColumns(textOf('lineage/hop-up'))).toEqual([
    'id',
    'urn',
    'entityType',
    'platform',
    'origin',
    'name',
    'description',
    'removed',
    'ownExists',
    'parentUrn',
    'returnable',
    'parent',
    'from',
  ]);
  expect(windowParameters).toEqual(['end', 'start']);
});

test('a variant edited alone is out of step: a column, a parameter, a condition, or the window test outside its section', () => {
  const reach = templateFamilies.get('lineage/reach')!;
  const edited = (name: string, edit: (text: string) => string) => (n: string) => (n === name ? edit(textOf(n)) : textOf(n));
  const drift = (name: string, edit: (text: string) => string) => driftOf('lineage/reach', reach, edited(name, edit));
  expect(drift('lineage/reach-up-2', (t) => t.replace('AS parentUrn,', 'AS parentUrn, n.origin AS originAgain,'))).toEqual(
    expect.arrayContaining([expect.stringMatching(/^lineage\/reach-up-2: returns .*originAgain/)]),
  );
  expect(drift('lineage/reach-down-max-windowed', (t) => t.replace('n.urn <> $urn', 'n.urn <> $urn AND n.urn <> $skip'))).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^lineage\/reach-down-max-windowed: parameters .*skip/),
      expect.stringMatching(/header declares/),
    ]),
  );
  const stricter = (t: string) => t.replace('degree <= $maxHops', 'degree < $maxHops');
  expect(drift('lineage/reach-up-1', stricter)).toEqual([
    "lineage/reach-up-1: differs from lineage/reach-down-1 beyond the walk's direction and bound",
  ]);
  // The variant the others are compared with, edited alone: every other of its kind is then out of step with it.
  expect(drift('lineage/reach-down-1', stricter)).toHaveLength(5);
  expect(
    drift('lineage/reach-up-max', (t) => t.replace('WITH n, min', 'WHERE all(r IN rs WHERE r.createdOn >= $start)\nWITH n, min')),
  ).toEqual(expect.arrayContaining(['lineage/reach-up-max: a walk without a window uses start']));
});

test('a hand-written file with the name of an expansion is refused at load', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cypher-families-'));
  try {
    cpSync(cypherDir, dir, { recursive: true });
    writeFileSync(join(dir, 'lineage/reach-up-2.cypher'), textOf('lineage/reach-up-2'));
    expect(() => loadCypher(dir)).toThrow(
      'Cypher file lineage/reach-up-2.cypher has the name of an expansion of the template lineage/reach.cypher',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
