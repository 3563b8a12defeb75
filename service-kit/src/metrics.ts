// Prometheus metrics of a service process (served at /metrics by service-runtime.ts). One registry
// per process: each service is its own process, and tests that run several services in one process
// see one combined registry, which is what they assert on. Label values are bounded by
// construction (route templates, statement names, operation names cut to a fixed length), so a
// client cannot grow the series count with odd URLs or operation names.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { QueryEvent } from '@lineage/catalog/store';
import type { RestoreProgress, RestoreResult } from '@lineage/catalog/operations';

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export interface ServiceMetrics {
  registry: Registry;
  httpRequests: Histogram<'service' | 'method' | 'route' | 'status'>;
  httpInFlight: Gauge<'service'>;
  graphqlOperations: Histogram<'server' | 'operation' | 'outcome'>;
  neo4jQueries: Histogram<'statement' | 'outcome'>;
  restoreRunning: Gauge;
  restoreRowsScanned: Counter;
  restoreRowsMigrated: Counter;
  restoreLastProgress: Gauge;
  /** StoreOptions.onQuery for this registry. */
  observeQuery(event: QueryEvent): void;
  /** Runs a restore with progress reported to the gauges. */
  trackRestore(run: (onProgress: (p: RestoreProgress) => void) => Promise<RestoreResult>): Promise<RestoreResult>;
}

let shared: ServiceMetrics | undefined;

/** The process's metrics (created on first use, with Node's default process metrics). */
export function processMetrics(): ServiceMetrics {
  shared ??= createMetrics();
  return shared;
}

/** Operation names come from clients: keep the label short and plain. */
export function operationLabel(name: string | null | undefined): string {
  if (!name) return 'anonymous';
  return /^[_A-Za-z][_0-9A-Za-z]{0,63}$/.test(name) ? name : 'invalid';
}

function createMetrics(): ServiceMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const httpRequests = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by service, method, route template and status (count = request rate).',
    labelNames: ['service', 'method', 'route', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const httpInFlight = new Gauge({
    name: 'http_requests_in_flight',
    help: 'Requests being served; graceful shutdown waits for this to reach 0.',
    labelNames: ['service'] as const,
    registers: [registry],
  });
  const graphqlOperations = new Histogram({
    name: 'graphql_operation_duration_seconds',
    help: 'GraphQL operations by server (gateway or subgraph), operation name and outcome (ok or error code).',
    labelNames: ['server', 'operation', 'outcome'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const neo4jQueries = new Histogram({
    name: 'neo4j_query_duration_seconds',
    help: 'Named Cypher statements (cypher/<area>/<name>.cypher) by outcome (ok or the Neo4j error code).',
    labelNames: ['statement', 'outcome'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const restoreRunning = new Gauge({ name: 'restore_indices_running', help: 'restoreIndices calls in progress.', registers: [registry] });
  const restoreRowsScanned = new Counter({
    name: 'restore_indices_rows_scanned_total',
    help: 'Aspect rows scanned by restoreIndices.',
    registers: [registry],
  });
  const restoreRowsMigrated = new Counter({
    name: 'restore_indices_rows_migrated_total',
    help: 'Aspect rows restored by restoreIndices.',
    registers: [registry],
  });
  const restoreLastProgress = new Gauge({
    name: 'restore_indices_last_progress_timestamp_seconds',
    help: 'When restoreIndices last committed a batch (a stalled restore stops moving this).',
    registers: [registry],
  });

  return {
    registry,
    httpRequests,
    httpInFlight,
    graphqlOperations,
    neo4jQueries,
    restoreRunning,
    restoreRowsScanned,
    restoreRowsMigrated,
    restoreLastProgress,
    observeQuery(event) {
      neo4jQueries.observe({ statement: event.statement, outcome: event.failure ?? 'ok' }, event.ms / 1000);
    },
    async trackRestore(run) {
      restoreRunning.inc();
      // Progress reports are cumulative per call: count only what is new since the last one.
      let scanned = 0;
      let migrated = 0;
      const absorb = (r: RestoreResult) => {
        restoreRowsScanned.inc(Math.max(0, r.rowsScanned - scanned));
        restoreRowsMigrated.inc(Math.max(0, r.rowsMigrated - migrated));
        scanned = Math.max(scanned, r.rowsScanned);
        migrated = Math.max(migrated, r.rowsMigrated);
        restoreLastProgress.setToCurrentTime();
      };
      try {
        const result = await run((p) => absorb(p.result));
        absorb(result);
        return result;
      } finally {
        restoreRunning.dec();
      }
    },
  };
}
