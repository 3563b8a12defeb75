// Every Cypher statement lives in cypher/<area>/<name>.cypher and is run by name. Files are read
// once at start; a name the code uses that has no file fails at load, not at first use. The lineage
// walks, which differ per direction and depth bound only in their arrow and literal bound, are one
// template file per family, expanded here; so are the statements that list every relationship type
// (docs/CONTRIBUTING.md §Add a Cypher statement).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RELATIONSHIP_TYPES } from '../model/entity-types.ts';

export const cypherDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'cypher');

/** The statements the code runs that are files of their own. */
const FILE_STATEMENTS = [
  'aspects/lock-entities',
  'aspects/lock-and-read',
  'aspects/fetch-latest',
  'aspects/fetch-versions',
  'aspects/fetch-one-version',
  'aspects/fetch-versions-by-key',
  'aspects/fetch-entity-latest',
  'aspects/create-rows',
  'aspects/update-rows',
  'aspects/delete-rows',
  'aspects/count-latest',
  'aspects/latest-naming',
  'aspects/bump-generation',
  'entities/exist',
  'entities/merge-nodes',
  'entities/set-search-fields',
  'entities/finish-hard-delete',
  'edges/delete-by-key',
  'edges/merge',
  'auth/token-active',
  'causality/await-bookmarks',
  'auth/roles-of',
  'auth/access-token-infos',
  'auth/latest-of-aspect',
  'auth/latest-values',
  'lineage/facet-values',
  'lineage/generation',
  'lineage/listed-values',
  'lineage/node-id',
  'lineage/node-ids',
  'details/most-connected',
  'details/recently-changed',
  'details/job-runs',
  'details/column-links',
  'marquez/dataset-namespaces',
  'marquez/datasets-page',
  'marquez/jobs',
  'marquez/dataset-jobs',
  'marquez/job-neighbours',
  'marquez/column-edges',
  'marquez/dataset-field-nodes',
  'marquez/search-datasets',
  'marquez/tags',
  'marquez/dataset-sources',
  'marquez/aspect-version',
  'restore/scan-rows',
  'restore/count-rows',
  'restore/node-fields',
  'restore/scan-nodes',
  'restore/scan-owners',
  'restore/delete-orphans',
  'restore/edges-leaving',
  'restore/delete-unowned',
  'backup/scan-entities',
  'backup/count-rows',
  'backup/open-transactions',
  'backup/put-rows',
  'backup/hold-begin',
  'backup/hold-renew',
  'backup/hold-end',
  'backup/held-rows',
  'backup/held-rows-prune',
  'search/entities',
  'relationships/related-incoming',
  'relationships/related-outgoing',
  'relationships/lineage-scroll-anchored',
  'relationships/lineage-scroll-all',
  'relationships/scroll',
  'events/append',
  'events/head',
  'events/poll',
  'events/first-since',
  'events/prune',
  'events/by-offsets',
  'events/aspect-refs',
  'events/freeze',
  'events/recent-for-entity',
  'events/migrate-single-events',
  'schema/await-indexes',
  'schema/read-version',
  'schema/stamp-version',
] as const;

// Templates: one file per family, expanded by the loader over a fixed whitelist. `{{direction}}` is
// down | up, `{{stream}}` downstream | upstream, `{{<}}` / `{{>}}` the arrowhead of the walk's
// direction, `{{bound}}` the depth bound and `{{maxBound}}` the max family's literal. A var-length
// bound cannot be a parameter, so each bound is its own statement (and its own cached plan).
// Bounded families also come in two kinds of walk: `{{#windowed}}…{{/windowed}}` is kept in the
// `-windowed` expansion (a time window's edge test) and dropped from the other. Dropping it rather
// than short-circuiting it with a parameter matters: Neo4j evaluates the test on every relationship
// the breadth-first expansion reads (+70 ms on a 120k-node reach; bench/README.md §Every request shape).
const WALK_DIRECTIONS = ['down', 'up'] as const;
export type WalkDirection = (typeof WALK_DIRECTIONS)[number];
const DEPTH_BOUNDS = [1, 2, 'max'] as const;
export type DepthBound = (typeof DEPTH_BOUNDS)[number];
/** The literal bound of the max family: the largest LINEAGE_MAX_HOPS the config accepts. */
export const MAX_DEPTH_LITERAL = 1000;

/** A walk over every edge, or only over edges a time window admits. */
export type WalkKind = '' | '-windowed';

/** Families expanded per direction, depth bound and walk kind: lineage/reach-down-1 … lineage/reach-up-max-windowed. */
const BOUNDED_TEMPLATES = [
  'lineage/reach',
  'lineage/select-page',
  'lineage/select-counts',
  'lineage/select-counts-judged',
  'lineage/select-cut',
  'lineage/fanout',
] as const;
/** Families expanded per direction: lineage/hop-down, lineage/hop-up, … */
const DIRECTED_TEMPLATES = ['lineage/hop', 'lineage/hop-nodes', 'lineage/neighbours', 'lineage/paths', 'lineage/vias'] as const;
export type BoundedFamily = (typeof BOUNDED_TEMPLATES)[number];
export type DirectedFamily = (typeof DIRECTED_TEMPLATES)[number];

// Listing templates: a `{{#relationshipTypes}}…{{/relationshipTypes}}` section is repeated once per
// relationship type of RELATIONSHIP_TYPES (the descriptors' list), `{{relationshipType}}` standing
// for the type in each copy — the owned-edge lookup's UNION branches and the owner indexes. A type
// is never request text: the list is the model's constant, and each name is checked to be a plain
// identifier before it is spliced in. A listing template is one statement, run by its own name.
const LISTING_TEMPLATES = ['edges/owned-by', 'schema/schema'] as const;

export type StatementName =
  | (typeof FILE_STATEMENTS)[number]
  | (typeof LISTING_TEMPLATES)[number]
  | `${BoundedFamily}-${WalkDirection}-${DepthBound}${WalkKind}`
  | `${DirectedFamily}-${WalkDirection}`;

/** The statement of a bounded family for one direction, bound and walk kind (`lineage/reach-up-2-windowed`). */
export function boundedStatement<F extends BoundedFamily>(
  family: F,
  direction: WalkDirection,
  bound: DepthBound,
  windowed: boolean,
): `${F}-${WalkDirection}-${DepthBound}${WalkKind}` {
  return `${family}-${direction}-${bound}${windowed ? '-windowed' : ''}`;
}

/** The statement of a directed family for one direction (`lineage/paths-down`). */
export function directedStatement<F extends DirectedFamily>(family: F, direction: WalkDirection): `${F}-${WalkDirection}` {
  return `${family}-${direction}`;
}

/** One statement a template family expands into, and the choices it was expanded with. */
export interface Expansion {
  readonly name: StatementName;
  readonly direction: WalkDirection;
  /** Bounded families only. */
  readonly bound?: DepthBound;
  /** Bounded families only: whether the `{{#windowed}}` section is kept. */
  readonly windowed?: boolean;
}

/**
 * Every template family and the statements it expands into: the one place that takes the product
 * of directions, depth bounds and walk kinds (the loader expands from it, the names come from it).
 */
export const templateFamilies: ReadonlyMap<BoundedFamily | DirectedFamily, readonly Expansion[]> = new Map<
  BoundedFamily | DirectedFamily,
  readonly Expansion[]
>([
  ...BOUNDED_TEMPLATES.map(
    (family) =>
      [
        family,
        WALK_DIRECTIONS.flatMap((direction) =>
          DEPTH_BOUNDS.flatMap((bound) =>
            [false, true].map((windowed) => ({ name: boundedStatement(family, direction, bound, windowed), direction, bound, windowed })),
          ),
        ),
      ] as const,
  ),
  ...DIRECTED_TEMPLATES.map(
    (family) => [family, WALK_DIRECTIONS.map((direction) => ({ name: directedStatement(family, direction), direction }))] as const,
  ),
]);

/** Which family each expansion comes from: a file of such a name would shadow the template's. */
const FAMILY_OF_EXPANSION: ReadonlyMap<string, string> = new Map(
  [...templateFamilies].flatMap(([family, expansions]) => expansions.map((e) => [e.name, family] as const)),
);

/** Every statement name the code may run. Adding a name here without a file is caught by loadCypher. */
export const statementNames: readonly StatementName[] = [
  ...FILE_STATEMENTS,
  ...LISTING_TEMPLATES,
  ...[...templateFamilies.values()].flatMap((expansions) => expansions.map((e) => e.name)),
];

// Partials: Cypher written once and inlined into templates, never run by themselves. A template says
// `{{<partial>:<variable>}}` and gets the partial's text (comment lines dropped) with the partial's
// placeholder set to that variable — the lineage edge's time-window test (`{{edge}}`,
// lineage/edge-in-window.cypher) and the columns of a node a hop reached (`{{node}}`,
// lineage/hop-row.cypher), and a node's criteria mask and free-text verdict (`{{node}}`,
// lineage/node-criteria-mask.cypher, lineage/node-text-match.cypher), which the counts, the page and
// the cut must judge alike.
const PARTIALS = {
  edgeInWindow: { file: 'lineage/edge-in-window', placeholder: '{{edge}}' },
  hopRow: { file: 'lineage/hop-row', placeholder: '{{node}}' },
  nodeCriteriaMask: { file: 'lineage/node-criteria-mask', placeholder: '{{node}}' },
  nodeTextMatch: { file: 'lineage/node-text-match', placeholder: '{{node}}' },
} as const;
export type Partials = Readonly<Partial<Record<keyof typeof PARTIALS, string>>>;
const PARTIAL_FILES: ReadonlySet<string> = new Set(Object.values(PARTIALS).map((p) => p.file));

function inlinePartial(name: string, partials: Partials, key: string, variable: string): string {
  const known = Object.hasOwn(PARTIALS, key) ? PARTIALS[key as keyof typeof PARTIALS] : undefined;
  const text = known && partials[key as keyof typeof PARTIALS];
  if (!known || text === undefined) throw new Error(`Cypher template ${name}: unknown partial {{${key}:${variable}}}`);
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(variable)) throw new Error(`Cypher template ${name}: {{${key}:${variable}}} needs a variable name`);
  return text
    .replace(/^\s*\/\/.*\n/gm, '')
    .trim()
    .replaceAll(known.placeholder, variable);
}

/** A section is kept or dropped (boolean), or repeated once per item with `{{<as>}}` set to it. */
type Section = boolean | { readonly each: readonly string[]; readonly as: string };

function fillTemplate(
  name: string,
  text: string,
  sections: Readonly<Record<string, Section>>,
  values: Readonly<Record<string, string>>,
  partials: Partials = {},
): string {
  const kept = text.replace(/\{\{#([^}]*)\}\}\n?([\s\S]*?)\{\{\/\1\}\}\n?/g, (_, key: string, body: string) => {
    const section = sections[key];
    if (section === undefined) throw new Error(`Cypher template ${name}: unknown section {{#${key}}}`);
    if (typeof section === 'boolean') return section ? body : '';
    return section.each.map((item) => body.replaceAll(`{{${section.as}}}`, item)).join('');
  });
  const inlined = kept.replace(/\{\{([A-Za-z]+):([^}]*)\}\}/g, (_, key: string, variable: string) =>
    inlinePartial(name, partials, key, variable),
  );
  return inlined.replace(/\{\{([^}]*)\}\}/g, (_, key: string) => {
    const value = values[key];
    if (value === undefined) throw new Error(`Cypher template ${name}: unknown placeholder {{${key}}}`);
    return value;
  });
}

/**
 * One template's text for one direction (and bound and walk kind: bounded families); throws on a
 * placeholder or section it does not know.
 */
export function expandTemplate(
  name: string,
  text: string,
  direction: WalkDirection,
  bound?: DepthBound,
  windowed?: boolean,
  partials: Partials = {},
): string {
  return fillTemplate(
    name,
    text,
    windowed === undefined ? {} : { windowed },
    {
      direction,
      stream: direction === 'down' ? 'downstream' : 'upstream',
      '<': direction === 'up' ? '<' : '',
      '>': direction === 'down' ? '>' : '',
      maxBound: String(MAX_DEPTH_LITERAL),
      ...(bound === undefined ? {} : { bound: bound === 'max' ? String(MAX_DEPTH_LITERAL) : String(bound) }),
    },
    partials,
  );
}

/**
 * A listing template's text: its `{{#relationshipTypes}}` section once per relationship type (the
 * model's RELATIONSHIP_TYPES unless given); throws on a name that is not a plain identifier, or on a
 * placeholder or section it does not know.
 */
export function expandListing(name: string, text: string, relationshipTypes: readonly string[] = RELATIONSHIP_TYPES): string {
  const bad = relationshipTypes.filter((t) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(t));
  if (bad.length) throw new Error(`Cypher template ${name}: not a relationship type name: ${bad.join(', ')}`);
  return fillTemplate(name, text, { relationshipTypes: { each: relationshipTypes, as: 'relationshipType' } }, {});
}

export type Statements = Readonly<Record<StatementName, string>> & { readonly all: ReadonlyMap<string, string> };

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? walk(p) : p.endsWith('.cypher') ? [p] : [];
  });
}

/**
 * Loads every .cypher file (schema files included, under their own names) and expands the
 * templates into their statements; `all` holds what runs (expansions, not templates).
 */
export function loadCypher(dir = cypherDir): Statements {
  const all = new Map<string, string>();
  const partials: Partials = Object.fromEntries(
    Object.entries(PARTIALS).map(([key, p]) => [key, readFileSync(join(dir, `${p.file}.cypher`), 'utf8')]),
  );
  for (const file of walk(dir)) {
    const name = relative(dir, file).replace(/\.cypher$/, '');
    const text = readFileSync(file, 'utf8');
    if (PARTIAL_FILES.has(name)) continue;
    // A hand-written variant would either be overwritten by the expansion or replace it, depending
    // on the order files are read in: either way one variant would drift from its family.
    const shadowed = FAMILY_OF_EXPANSION.get(name);
    if (shadowed)
      throw new Error(
        `Cypher file ${name}.cypher has the name of an expansion of the template ${shadowed}.cypher: change the template instead`,
      );
    const expansions = templateFamilies.get(name as BoundedFamily | DirectedFamily);
    if (expansions) {
      for (const e of expansions) all.set(e.name, expandTemplate(name, text, e.direction, e.bound, e.windowed, partials));
    } else {
      all.set(name, (LISTING_TEMPLATES as readonly string[]).includes(name) ? expandListing(name, text) : text);
    }
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
