// What an Entity field resolves to before its fields are read: the parsed urn. Which GraphQL object
// type renders which entity type is the descriptor's graphqlTypename (docs/CONTRIBUTING.md §Add an
// entity type); urns of types without one resolve to null.
import { RESTRICTED_ENTITY_TYPE } from '@lineage/catalog/read';
import { badRequest, descriptorOf, isCatalogError, validateUrnKey, InvalidUrnError, parseUrn, type Urn } from '@lineage/catalog/model';

export interface EntityRef {
  urn: Urn;
}

/** DataHub's GraphQL type of an entity the caller may not view, under its opaque urn (docs/wire-contract.md §Lineage search). */
const RESTRICTED_TYPENAME = 'Restricted';

/** The GraphQL object type rendering an entity type (its descriptor's); undefined = resolves to null. */
function typenameOfType(entityType: string): string | undefined {
  if (entityType === RESTRICTED_ENTITY_TYPE) return RESTRICTED_TYPENAME;
  return descriptorOf(entityType)?.graphqlTypename;
}

export function typenameOf(ref: EntityRef): string | undefined {
  return typenameOfType(ref.urn.entityType);
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
  if (entityType ? urn.entityType !== entityType : typenameOfType(urn.entityType) === undefined) return null;
  return { urn };
}

/** The ref of a urn read from the store; null for anything unparseable or of a type we do not render. */
export function storedRef(text: string | null | undefined): EntityRef | null {
  if (!text) return null;
  try {
    const urn = parseUrn(text);
    return typenameOfType(urn.entityType) !== undefined ? { urn } : null;
  } catch {
    return null;
  }
}
