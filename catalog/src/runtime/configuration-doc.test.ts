// docs/configuration.md against the process schemas, so the table has one source of truth: every
// variable a process reads has its row, each row names exactly the processes whose schema holds it,
// and a default the schema sets is the default the row shows.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { z } from 'zod';
import { PROCESS_CONFIG_SCHEMAS, type ProcessName } from './config.ts';

const docPath = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'docs', 'configuration.md');

/** Documented, but read by Node itself rather than through a schema: the launcher appends heap flags to it. */
const OUTSIDE_THE_SCHEMAS: Record<string, ProcessName[]> = { NODE_OPTIONS: ['npm start'] };

interface Row {
  variable: string;
  defaultCell: string;
  readBy: string[];
}

function documentedRows(markdown: string): Row[] {
  return markdown
    .split('\n')
    .filter((line) => /^\| `[A-Z0-9_]+` \|/.test(line))
    .map((line) => {
      const [variable, defaultCell, readBy] = line
        .slice(1, -1)
        .split(' | ')
        .map((c) => c.trim());
      return { variable: variable!.replaceAll('`', ''), defaultCell: defaultCell!, readBy: readBy!.split(',').map((p) => p.trim()) };
    });
}

const processes = Object.keys(PROCESS_CONFIG_SCHEMAS) as ProcessName[];
const shapeOf = (p: ProcessName): Record<string, z.ZodType> => PROCESS_CONFIG_SCHEMAS[p].shape;

/** Each variable any schema holds → the processes reading it, in the table's order. */
function readersBySchema(): Map<string, ProcessName[]> {
  const readers = new Map<string, ProcessName[]>();
  for (const p of processes) for (const v of Object.keys(shapeOf(p))) readers.set(v, [...(readers.get(v) ?? []), p]);
  return readers;
}

/** The value a schema gives an unset variable, as the table spells it; undefined when it has none. */
function schemaDefault(variable: string): string | undefined {
  const p = processes.find((q) => variable in shapeOf(q))!;
  const parsed = shapeOf(p)[variable]!.safeParse(undefined);
  if (!parsed.success || parsed.data === undefined) return undefined;
  return Array.isArray(parsed.data) ? parsed.data.join(',') : String(parsed.data);
}

const rows = documentedRows(readFileSync(docPath, 'utf8'));
const readers = readersBySchema();

test('the table has one row per variable, and a row for every variable a process reads', () => {
  const documented = rows.map((r) => r.variable);
  expect(documented.length).toBe(new Set(documented).size);
  expect([...readers.keys()].filter((v) => !documented.includes(v))).toEqual([]);
  expect(documented.filter((v) => !readers.has(v) && !(v in OUTSIDE_THE_SCHEMAS))).toEqual([]);
});

test('"Read by" names exactly the processes whose schema holds the variable', () => {
  const wrong = rows
    .map((r) => ({ variable: r.variable, documented: r.readBy, schemas: readers.get(r.variable) ?? OUTSIDE_THE_SCHEMAS[r.variable] }))
    .filter((r) => r.documented.join(', ') !== r.schemas?.join(', '));
  expect(wrong).toEqual([]);
});

test('a default the schema sets is the default the table shows', () => {
  const wrong = rows
    .map((r) => ({
      variable: r.variable,
      documented: r.defaultCell,
      schema: readers.has(r.variable) ? schemaDefault(r.variable) : undefined,
    }))
    .filter((r) => r.schema !== undefined && !r.documented.startsWith(`\`${r.schema}\``));
  expect(wrong).toEqual([]);
});

test('the check reads the table it means to (a row of each kind parses)', () => {
  expect(rows.find((r) => r.variable === 'LINEAGE_PORT')).toEqual({
    variable: 'LINEAGE_PORT',
    defaultCell: '`8081`',
    readBy: ['lineage', 'gateway', 'npm start'],
  });
  expect(schemaDefault('EVENTS_TOPICS')).toBe('PlatformEvent_v1,MetadataChangeLog_Versioned_v1');
  expect(schemaDefault('MAX_EDGES_PER_WRITE')).toBeUndefined();
});
