// What an Entity field resolves to before its fields are read: the parsed urn. Which GraphQL object
// type renders which entity type is decided here and only here.
import { badRequest, isCatalogError, validateUrnKey, InvalidUrnError, parseUrn, type Urn } from '@lineage/catalog/model';

export interface EntityRef {
  urn: Urn;
}

/** DataHub entity name → GraphQL object type of this subgraph. Other entity types resolve to null. */
export const GRAPHQL_TYPENAME: Readonly<Record<string, string>> = {
  dataset: 'Dataset',
  dataJob: 'DataJob',
  dataFlow: 'DataFlow',
  chart: 'Chart',
  dashboard: 'Dashboard',
  mlFeature: 'MLFeature',
  mlPrimaryKey: 'MLPrimaryKey',
  mlFeatureTable: 'MLFeatureTable',
  mlModel: 'MLModel',
  mlModelGroup: 'MLModelGroup',
  schemaField: 'SchemaFieldEntity',
  dataProcessInstance: 'DataProcessInstance',
  corpuser: 'CorpUser',
  dataPlatform: 'DataPlatform',
  query: 'QueryEntity',
  dataPlatformInstance: 'DataPlatformInstance',
};

export function typenameOf(ref: EntityRef): string | undefined {
  return Object.hasOwn(GRAPHQL_TYPENAME, ref.urn.entityType) ? GRAPHQL_TYPENAME[ref.urn.entityType] : undefined;
}

/** Parses a urn from the request: grammar and key shape, else 400 `Invalid urn: <urn>`. */
export function parseRequestUrn(text: string): Urn {
  try {
    const urn = parseUrn(text);
    validateUrnKey(urn);
    return urn;
  } catch (e) {
    if (e instanceof InvalidUrnError || isCatalogError(e)) throw badRequest(`Invalid urn: ${text}`);
    throw e;
  }
}

/** The ref of a requested urn, or null when this subgraph has no type for it (or not the one asked for). */
export function requestedRef(text: string, entityType?: string): EntityRef | null {
  const urn = parseRequestUrn(text);
  if (entityType ? urn.entityType !== entityType : !Object.hasOwn(GRAPHQL_TYPENAME, urn.entityType)) return null;
  return { urn };
}

/** The ref of a urn read from the store; null for anything unparseable or of a type we do not render. */
export function storedRef(text: string | null | undefined): EntityRef | null {
  if (!text) return null;
  try {
    const urn = parseUrn(text);
    return Object.hasOwn(GRAPHQL_TYPENAME, urn.entityType) ? { urn } : null;
  } catch {
    return null;
  }
}
