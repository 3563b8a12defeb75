// The scale-out run (npm run test:scale-out, test/scale-out/global-setup.ts) starts two replicas of
// every service as processes behind round-robin fronts and names the fronts here. HTTP suites that
// would build in-process apps then reach those processes instead — the gateway front for GraphQL,
// and its /api/gms relay for everything the ingestion service serves. A suite that asks for its own
// settings (overrides) still gets in-process apps: the processes run with the defaults.
export interface ExternalFront {
  /** Round-robin over the gateways. */
  gatewayUrl: string;
  /** Round-robin over the subgraphs, for suites that call a subgraph directly. */
  subgraphUrl: string;
}

export const FRONT_ENV = 'TEST_FRONT_URL';
export const SUBGRAPH_FRONT_ENV = 'TEST_SUBGRAPH_FRONT_URL';

export function externalFront(overrides: Record<string, string> = {}): ExternalFront | undefined {
  const gatewayUrl = process.env[FRONT_ENV];
  const subgraphUrl = process.env[SUBGRAPH_FRONT_ENV];
  if (!gatewayUrl || !subgraphUrl || Object.keys(overrides).length > 0) return undefined;
  return { gatewayUrl, subgraphUrl };
}
