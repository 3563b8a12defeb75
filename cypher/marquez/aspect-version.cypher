// Purpose: the latest row of one aspect and its version count, for a conditional read-modify-write
// (Marquez's column tags in editableSchemaMetadata, docs/marquez-compatibility.md §Writes).
// Params: $key: string (the latest row's key "<urn>␟<aspect>␟0")
// Returns: value: string (JSON), maxVersion: int
MATCH (a:Aspect {key: $key})
RETURN a.value AS value, a.maxVersion AS maxVersion
