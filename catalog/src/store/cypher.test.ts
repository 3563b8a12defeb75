import {
  boundedStatement,
  directedStatement,
  expandListing,
  expandTemplate,
  loadCypher,
  MAX_DEPTH_LITERAL,
  statementNames,
} from './cypher.ts';

const statements = loadCypher();

test('templates expand per direction (and bound): arrowheads, bound literals and words', () => {
  const text =
    '// {{stream}}, {{direction}}, at most {{bound}}\nMATCH p = (s){{<}}-[:LINEAGE*1..{{bound}}]-{{>}}(n) WHERE length(p) < {{maxBound}}';
  expect(expandTemplate('t', text, 'down', 2)).toBe(
    '// downstream, down, at most 2\nMATCH p = (s)-[:LINEAGE*1..2]->(n) WHERE length(p) < 1000',
  );
  expect(expandTemplate('t', text, 'up', 'max')).toBe(
    `// upstream, up, at most ${MAX_DEPTH_LITERAL}\nMATCH p = (s)<-[:LINEAGE*1..${MAX_DEPTH_LITERAL}]-(n) WHERE length(p) < 1000`,
  );
});

test("a bounded template's windowed section is kept in the -windowed expansion only", () => {
  const text =
    'MATCH p = (s)-[rs:LINEAGE*1..{{bound}}]->(n)\n{{#windowed}}\nWHERE all(r IN rs WHERE r.t >= $start)\n{{/windowed}}\nRETURN n';
  expect(expandTemplate('t', text, 'down', 2, true)).toBe(
    'MATCH p = (s)-[rs:LINEAGE*1..2]->(n)\nWHERE all(r IN rs WHERE r.t >= $start)\nRETURN n',
  );
  expect(expandTemplate('t', text, 'down', 2, false)).toBe('MATCH p = (s)-[rs:LINEAGE*1..2]->(n)\nRETURN n');
  expect(boundedStatement('lineage/select-page', 'down', 2, true)).toBe('lineage/select-page-down-2-windowed');
  expect(statements['lineage/reach-down-max']).not.toContain('$start AND');
  expect(statements['lineage/reach-down-max-windowed']).toContain('$start AND');
});

test('a listing template repeats its section once per relationship type, and takes only plain names', () => {
  const text =
    'CALL {\n{{#relationshipTypes}}\n  MATCH ()-[r:{{relationshipType}}]->() RETURN r\n  UNION ALL\n{{/relationshipTypes}}\n  MATCH ()-[r:LINEAGE]->() RETURN r\n}';
  expect(expandListing('t', text, ['A', 'B'])).toBe(
    'CALL {\n  MATCH ()-[r:A]->() RETURN r\n  UNION ALL\n  MATCH ()-[r:B]->() RETURN r\n  UNION ALL\n  MATCH ()-[r:LINEAGE]->() RETURN r\n}',
  );
  expect(expandListing('t', text, [])).toBe('CALL {\n  MATCH ()-[r:LINEAGE]->() RETURN r\n}');
  expect(() => expandListing('t', text, ['A', 'B]->() DETACH DELETE r //'])).toThrow(/t: not a relationship type name: B\]/);
  expect(() => expandListing('t', '{{#windowed}}x{{/windowed}}', ['A'])).toThrow(/unknown section \{\{#windowed\}\}/);
  expect(() => expandListing('t', 'RETURN {{relationshipType}}', ['A'])).toThrow(/unknown placeholder \{\{relationshipType\}\}/);
  // The loaded statements are the expansions, over the model's list.
  expect(statements.all.get('edges/owned-by')).not.toContain('{{');
  expect(statements.all.get('schema/schema')).not.toContain('{{');
});

test('a partial is written once and inlined where a template names it, for the variable it names', () => {
  const partial = '// what it tests\n({{edge}}.manual OR {{edge}}.createdOn >= $start)\n';
  const text = 'MATCH (a)-[l:LINEAGE]->(b) WHERE $unwindowed OR {{edgeInWindow:l}} RETURN b';
  expect(expandTemplate('t', text, 'down', undefined, undefined, { edgeInWindow: partial })).toBe(
    'MATCH (a)-[l:LINEAGE]->(b) WHERE $unwindowed OR (l.manual OR l.createdOn >= $start) RETURN b',
  );
  expect(() => expandTemplate('t', text, 'down')).toThrow(/t: unknown partial \{\{edgeInWindow:l\}\}/);
  expect(() => expandTemplate('t', 'WHERE {{edgeInWindow:l) OR x}}', 'down', undefined, undefined, { edgeInWindow: partial })).toThrow(
    /needs a variable name/,
  );
  expect(() => expandTemplate('t', 'WHERE {{nothing:l}}', 'down', undefined, undefined, { edgeInWindow: partial })).toThrow(
    /unknown partial/,
  );
  // Every lineage statement with a window carries the one test, inlined; the partial is no statement.
  expect(statements.all.has('lineage/edge-in-window')).toBe(false);
  const windowTests = [...statements.all].filter(([, t]) => t.includes('.createdOn >= $start'));
  expect(windowTests.length).toBeGreaterThan(30);
  for (const [, t] of windowTests)
    expect(t).toMatch(/\((\w)\.manual\n OR \(coalesce\(\1\.createdOn, 0\) = 0 AND coalesce\(\1\.updatedOn, 0\) = 0\)/);
  // Both hop families return the one row shape, for their node variable; the ordered one adds a column.
  expect(statements.all.has('lineage/hop-row')).toBe(false);
  for (const name of ['lineage/hop-down', 'lineage/hop-up', 'lineage/hop-nodes-down', 'lineage/hop-nodes-up']) {
    expect(statements.all.get(name)).toContain('RETURN elementId(n) AS id, n.urn AS urn');
    expect(statements.all.get(name)).not.toContain('{{');
  }
  expect(statements.all.get('lineage/hop-down')).toMatch(/END AS parent, from\nORDER BY from, urn\s*$/);
});

test('an unknown placeholder, or a bound in a directed-only template, fails at load', () => {
  expect(() => expandTemplate('lineage/x', 'RETURN {{depth}}', 'down', 1)).toThrow(/lineage\/x: unknown placeholder \{\{depth\}\}/);
  expect(() => expandTemplate('lineage/x', 'MATCH (a)-[*1..{{bound}}]->(b)', 'down')).toThrow(/unknown placeholder \{\{bound\}\}/);
  expect(() => expandTemplate('lineage/x', '{{#windowed}}WHERE x{{/windowed}}', 'down')).toThrow(/unknown section \{\{#windowed\}\}/);
});

test('every statement the code runs is loaded, and none keeps a placeholder', () => {
  for (const name of statementNames) {
    expect(statements.all.get(name)).toMatch(/^\/\/ Purpose: /);
    expect(statements.all.get(name)).not.toContain('{{');
  }
  // …and every file loaded is a statement the code can name: none is reachable only by a string.
  const named = new Set<string>(statementNames);
  expect([...statements.all.keys()].filter((n) => !named.has(n))).toEqual([]);
  // Templates run only through their expansions.
  expect(statements.all.has('lineage/reach')).toBe(false);
  expect(boundedStatement('lineage/reach', 'up', 'max', false)).toBe('lineage/reach-up-max');
  expect(directedStatement('lineage/paths', 'down')).toBe('lineage/paths-down');
});
