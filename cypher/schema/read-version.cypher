// Purpose: the store's schema version (docs/operations.md §Schema versions): the version of the
// constraints, indexes and derived fields this store was last migrated to, and whether it holds
// any entity (an empty store is stamped at once; one with data and no stamp predates versions).
// Params: none
// Returns: version (int|null: null = never stamped), entities (bool)
OPTIONAL MATCH (s:SchemaVersion {name: 'catalog'})
RETURN s.version AS version, EXISTS { MATCH (:Entity) } AS entities
