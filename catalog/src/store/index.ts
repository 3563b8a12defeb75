// The public face of the store layer (docs/CONTRIBUTING.md §Layers): what other layers and services
// import, by name. Doors hold the store's handle and types; they never run Cypher themselves.
// Existence as the store records it, for the subgraph's per-request existence cache.
export { type Existence } from './existence.ts';
// The store handle: built once per process, passed to the domain; query events feed the metrics.
export { createStore, type QueryEvent, type Store } from './store.ts';
// Aspect row keys, for the benchmark's ingest workload.
export { rowKey } from './rows.ts';
