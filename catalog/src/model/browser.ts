// What a web page may use of the model (the explorer imports it as `@lineage/catalog/browser`):
// pure, no Node API — the entity types' names and looks, the fields the page asks for to name them,
// and the names a urn's key implies.
import { nameOf, platformOf } from './key-search-fields.ts';
import { MODELLED_ENTITY_TYPES } from './descriptors/built-in-entity-types.ts';
import type { EntityTypeDescriptor } from './entity-types.ts';
import { tryParseUrn } from './urn.ts';

export { colouredTypes, displayColourOf, displayLabelOf } from './entity-registry.ts';
export { UNIT_SEPARATOR } from './urn.ts';
export type { JobRun } from './job-run.ts';

/**
 * The name a urn's key gives its entity (a dataset's name, a job's id, a column's fieldPath, a
 * platform's name; the whole key of a type without a name part); the text itself when it is not a urn.
 */
export function urnDisplayName(text: string): string {
  const urn = tryParseUrn(text);
  return (urn && nameOf(urn)) || text;
}

/** The name of the platform a urn's key implies (`hive`, a flow's orchestrator); null when it has none. */
export function urnPlatformName(text: string): string | null {
  const urn = tryParseUrn(text);
  const platform = urn ? platformOf(urn) : undefined;
  return platform === undefined ? null : urnDisplayName(platform);
}

/**
 * A column urn's parent and fieldPath (`urn:li:schemaField:(<parent>,<fieldPath>)`); null for any
 * other text. The fieldPath is returned as the urn writes it: a chart's or dashboard's own column
 * percent-encodes `(`, `)` and `,` (docs/lineage-model.md §inputFields).
 */
export function schemaFieldParts(text: string): { parent: string; path: string } | null {
  const urn = tryParseUrn(text);
  if (!urn || urn.entityType !== 'schemaField' || urn.parts.length !== 2) return null;
  return { parent: urn.parts[0]!, path: urn.parts[1]! };
}

/**
 * The GraphQL fields that name an entity of one type and its platform, all derived from its
 * descriptor: the key part that is its name, its platform part, its descriptive aspect's name.
 */
export interface PageFields {
  /** The GraphQL object type. */
  readonly typename: string;
  /** The field holding its name from the key (`name`, `jobId`, `fieldPath`). */
  readonly name?: string;
  /** `platform { urn name properties { displayName } }`: its key names a dataPlatform. */
  readonly platformEntity?: true;
  /** The field holding its platform's name as text (a flow's `orchestrator`, a chart's `tool`). */
  readonly platform?: string;
  /** The entity its key names as its platform (a job's `dataFlow`), asked for with that type's own fields. */
  readonly via?: { readonly field: string; readonly fields: PageFields };
  /** `properties { name }`: its descriptive aspect names it there. */
  readonly properties?: true;
  /** It has a descriptive aspect: the details sheet reads its aspects. */
  readonly described?: true;
}

function pageFieldsOfDescriptor(d: EntityTypeDescriptor & { graphqlTypename: string }): PageFields {
  const m = d.modelled;
  const part = (name: string | undefined) => (name === undefined ? undefined : d.key.find((p) => p.name === name));
  const name = part(m?.namePart)?.graphqlField;
  const platform = part(m?.platformPart);
  // A platform part naming one rendered type is asked for with that type's fields; one that may name
  // several (a column's parent) would need a fragment per type, and the urn already says it.
  const only =
    platform?.kind === 'urn' && platform.urnTypes.length === 1
      ? MODELLED_ENTITY_TYPES.find((t) => t.name === platform.urnTypes[0])
      : undefined;
  return {
    typename: d.graphqlTypename,
    ...(name ? { name } : {}),
    ...(only?.name === 'dataPlatform' ? { platformEntity: true as const } : {}),
    ...(platform?.kind === 'string' && platform.graphqlField ? { platform: platform.graphqlField } : {}),
    ...(only?.graphqlTypename && only.name !== 'dataPlatform' && platform?.graphqlField
      ? { via: { field: platform.graphqlField, fields: pageFieldsOfDescriptor({ ...only, graphqlTypename: only.graphqlTypename }) } }
      : {}),
    ...(m?.graphqlDescriptive === 'properties' && m.descriptive?.name.length ? { properties: true as const } : {}),
    ...(m?.descriptive ? { described: true as const } : {}),
  };
}

/** Whether the page draws a type: one with relationships and lineage, and a GraphQL object type. */
const isDrawn = (d: EntityTypeDescriptor): d is EntityTypeDescriptor & { graphqlTypename: string } =>
  d.modelled?.relationships === true && d.graphqlTypename !== undefined;

/**
 * The types the page draws, by GraphQL EntityType value. The page is built with the built-in types:
 * one added at start-up (installEntityRegistry) is drawn by its urn.
 */
function drawnTypes(): ReadonlyMap<string, PageFields> {
  return new Map(MODELLED_ENTITY_TYPES.flatMap((d) => (isDrawn(d) ? [[d.graphqlType, pageFieldsOfDescriptor(d)] as const] : [])));
}

const DRAWN = drawnTypes();

/** The fields the page asks for to name an entity of a GraphQL EntityType; undefined = none (the urn names it). */
export function pageFieldsOf(graphqlType: string): PageFields | undefined {
  return DRAWN.get(graphqlType);
}

/** The aspect that describes a drawn type, and the one DataHub's UI writes a hand-edited description to. */
export interface DescribingAspect {
  readonly aspect: string;
  readonly editable?: string;
}

/**
 * The aspects that describe the drawn types, in registry order, from their descriptors: the details
 * sheet asks for them and shows the first it finds. The page passes none (the built-in types).
 */
export function describingAspectsOf(descriptors: readonly EntityTypeDescriptor[] = MODELLED_ENTITY_TYPES): DescribingAspect[] {
  return descriptors.flatMap((d) => {
    const descriptive = isDrawn(d) ? d.modelled?.descriptive : undefined;
    return descriptive ? [{ aspect: descriptive.aspect, ...(descriptive.editable ? { editable: descriptive.editable } : {}) }] : [];
  });
}

/** The GraphQL object types the details sheet reads aspects of. */
export function describedTypenames(): string[] {
  return [...DRAWN.values()].flatMap((f) => (f.described ? [f.typename] : []));
}

function selection(f: PageFields): string[] {
  return [
    ...(f.name ? [f.name] : []),
    ...(f.platformEntity ? ['platform { urn name properties { displayName } }'] : []),
    ...(f.platform ? [f.platform] : []),
    ...(f.properties ? ['properties { name }'] : []),
    ...(f.via ? [`${f.via.field} { ${['urn', ...selection(f.via.fields)].join(' ')} }`] : []),
  ];
}

/** The page's `ExplorerEntity` fragment: urn, type, and per drawn type whether it exists and what names it. */
export function pageEntityFragment(): string {
  const lines = [...DRAWN.values()].map((f) => `  ... on ${f.typename} { ${['exists', ...selection(f)].join(' ')} }`);
  return `\nfragment ExplorerEntity on Entity {\n  urn\n  type\n${lines.join('\n')}\n}`;
}
