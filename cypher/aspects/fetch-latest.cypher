// Purpose: the latest (version 0) rows for a set of (urn, aspect) keys.
// Params: $keys: [string]   (aspect row key "<urn>\u241f<aspect>\u241f0")
// Returns: key, urn, name, value (JSON text), systemMetadata (JSON text), maxVersion, createdOn, createdBy
UNWIND $keys AS k
MATCH (a:Aspect {key: k})
RETURN a.key AS key, a.urn AS urn, a.name AS name, a.value AS value, a.systemMetadata AS systemMetadata,
       a.maxVersion AS maxVersion, a.createdOn AS createdOn, a.createdBy AS createdBy
