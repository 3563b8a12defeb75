// Purpose: aspect rows by key: usually the latest (version 0) rows of some (urn, aspect) pairs; the
// change log also reads archived versions through it (store/change-log.ts, maxVersion null there).
// Params: $keys: [string]   (aspect row key "<urn>\u241f<aspect>\u241f<version>")
// Returns: key, urn, name, value (JSON text), systemMetadata (JSON text), maxVersion, createdOn, createdBy
UNWIND $keys AS k
MATCH (a:Aspect {key: k})
RETURN a.key AS key, a.urn AS urn, a.name AS name, a.value AS value, a.systemMetadata AS systemMetadata,
       a.maxVersion AS maxVersion, a.createdOn AS createdOn, a.createdBy AS createdBy
