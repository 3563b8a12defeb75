// What a web page may use of the model (the explorer imports it as `@lineage/catalog/browser`):
// pure, no Node API — the entity types' names and looks, and the names a urn's key implies.
import { nameOf, platformOf } from './entity-registry.ts';
import { tryParseUrn } from './urn.ts';

export { colouredTypes, displayColourOf, displayLabelOf } from './entity-registry.ts';
export { UNIT_SEPARATOR } from './urn.ts';

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
