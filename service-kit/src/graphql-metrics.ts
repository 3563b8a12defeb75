// GraphQL operation metrics for the subgraph and the gateway: duration per operation name and
// outcome. Operation names come from clients, so only the first few hundred distinct names get
// their own series; later ones share "other".
import type { ApolloServerPlugin } from '@apollo/server';
import { operationLabel, processMetrics, type ServiceMetrics } from './metrics.ts';

const MAX_OPERATION_NAMES = 300;
/** The gateway's query planner names subgraph fetches <operation>__<subgraph>__<n>. */
const PLANNER_SUFFIX = /__[A-Za-z0-9_]+?__\d+$/;

export function graphqlMetricsPlugin<T extends object>(
  server: 'gateway' | 'subgraph',
  metrics: ServiceMetrics = processMetrics(),
): ApolloServerPlugin<T> {
  const seen = new Set<string>();
  const label = (name: string | null | undefined) => {
    const op = operationLabel(server === 'subgraph' ? name?.replace(PLANNER_SUFFIX, '') : name);
    if (seen.has(op)) return op;
    if (seen.size >= MAX_OPERATION_NAMES) return 'other';
    seen.add(op);
    return op;
  };
  return {
    async requestDidStart() {
      const t0 = performance.now();
      return {
        async willSendResponse(rc) {
          const body = rc.response.body;
          const errors = body.kind === 'single' ? body.singleResult.errors : undefined;
          let outcome = 'ok';
          if (errors?.length) {
            // The formatted error: DataHub's integer code, or a classification for parse/validation errors.
            const ext = errors[0]!.extensions as { code?: unknown; classification?: unknown } | undefined;
            const code =
              typeof ext?.code === 'number' ? ext.code : typeof ext?.classification === 'string' ? ext.classification : 'unknown';
            outcome = `error_${code}`;
          }
          metrics.graphqlOperations.observe(
            { server, operation: label(rc.operationName ?? rc.request.operationName), outcome },
            (performance.now() - t0) / 1000,
          );
        },
      };
    },
  };
}
