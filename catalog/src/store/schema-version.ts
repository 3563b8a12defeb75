// The store's schema version (docs/operations.md §Schema versions). Constraints, indexes and the
// derived fields they serve change between versions of this project; a store records the version
// it was last migrated to in one (:SchemaVersion {name: 'catalog'}) node. Version 1 is every store
// written before versions existed (no node); an empty store is stamped with the current version
// when a service first applies the schema. A newer store than this code knows is refused.

/** The version this code writes and reads. Raise it with a migration in operations/backup/migrate.ts. */
export const SCHEMA_VERSION = 9;

/** What each version is, for `npm run migrate` and the docs. */
export const SCHEMA_VERSIONS: ReadonlyArray<{ version: number; what: string }> = [
  {
    version: 1,
    what: 'stores written before schema versions (no SchemaVersion node): entity_search_v1, no facetKey, no tag/term/owner edges',
  },
  { version: 2, what: 'SchemaVersion node; entity_search_v2, facetKey on every entity, owner indexes for every derived relationship' },
  {
    version: 3,
    what: "entity_search_v3 over searchText (words split at . _ - / and case changes, as DataHub's analyzer), typeNames from subTypes",
  },
  { version: 4, what: 'the change log (docs/change-events.md): ChangeLogHead, ChangeLogRetention and ChangeEvent constraints and indexes' },
  {
    version: 5,
    what: 'change-log indexes by entity (recent changes of one entity) and by aspect row (events that refer to stored versions)',
  },
  {
    version: 6,
    what: 'the change log in batches (ChangeBatch: one node per write, entity and topic) instead of one ChangeEvent node per event',
  },
  { version: 7, what: 'exports hold rows deleted while they run: ExportHold constraint and HeldRow index' },
  { version: 8, what: "qualifiedName on entity nodes (structured search's qualifiedName: field), from the descriptive aspect" },
  {
    version: 9,
    what: "users' IsMemberOfGroup / IsMemberOfNativeGroup edges (from groupMembership, nativeGroupMembership) and their owner indexes",
  },
];

export interface SchemaState {
  /** The stamped version; null when the store was never stamped. */
  version: number | null;
  /** Whether the store holds any entity (an unstamped store with data is version 1). */
  entities: boolean;
}

/** The version a store is at: its stamp, else 1 when it holds data, else (empty) the current one. */
export const effectiveVersion = (s: SchemaState): number => s.version ?? (s.entities ? 1 : SCHEMA_VERSION);

/** Refusal to run on a store written by a newer version of the catalog. */
export function schemaTooNew(stored: number): Error {
  return new Error(
    `The store is at schema version ${stored}, newer than this catalog knows (${SCHEMA_VERSION}): ` +
      'run a catalog at least as new as the store, or restore a backup taken with this version (docs/operations.md §Schema versions).',
  );
}
