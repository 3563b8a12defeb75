// What other workspaces may use of the lineage subgraph: the factory (tests, main.ts) and its SDL,
// from which the gateway composes the supergraph.
export { createLineageSubgraph, type LineageSubgraph, type LineageSubgraphDeps } from './app.ts';
export { subgraphTypeDefs } from './schema.ts';
