// What every service process does the same way, in one place: failing fast on a bad configuration,
// logger, store, the operational endpoints and the process lifecycle. main.ts of each service names
// its own config loader (its schema in catalog/src/runtime/config.ts), its port and how to build its HTTP server.
//
// Around every request (whatever framework serves it: Koa, Apollo on plain Node HTTP, the proxy):
// - a request id: the caller's `x-request-id` when it is a plain short id, else a fresh UUID; set on
//   the request (so proxies and subgraph calls forward it), echoed in the response, held in
//   request-context for the logger (every line) and the store (Neo4j transaction metadata);
// - /health/live (200 while the process runs), /health/ready and /health (200 only when Neo4j
//   answers and the process is not draining; 503 + Retry-After otherwise), /metrics (Prometheus);
//   open like /health, on the same host and port as the service (see docs/reliability.md §Operability);
// - request count/latency per route template and status, requests in flight, one access log line.
//
// Shutdown on SIGTERM/SIGINT: readiness turns 503, the listener closes (no new connections), idle
// keep-alive connections close, in-flight requests finish (up to SHUTDOWN_GRACE_MS, default 8 s,
// below tools/stack.ts's 10 s SIGKILL escalation) and are told `Connection: close`, then the rest
// is cut, the service's own close runs and the driver closes.
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import {
  changeLogTopicsOf,
  ConfigError,
  type ServiceConfig,
  createLogger,
  type Logger,
  REQUEST_ID_HEADER,
  requestIdFrom,
  runInRequest,
} from '@lineage/catalog/runtime';
import { processMetrics, type ServiceMetrics } from './metrics.ts';
import { createStore, type Store } from '@lineage/catalog/store';

const LIVE_PATH = '/health/live';
const READY_PATH = '/health/ready';
const METRICS_PATH = '/metrics';
/** How long a readiness probe waits for Neo4j before answering 503. */
const READY_PING_TIMEOUT_MS = 3_000;

export interface OpsOptions {
  /** Service name: the `service` label and the access log's name. */
  service: string;
  logger: Logger;
  /** Readiness asks this store. */
  store: Pick<Store, 'ping'>;
  metrics?: ServiceMetrics;
  /** Paths answering readiness (default /health and /health/ready). */
  readyPaths?: readonly string[];
  /** The metric label of a request's route; default {@link opsRouteTemplate}. */
  routeTemplate?: (url: string) => string;
}

export interface Operable {
  /** The wrapped request listener. */
  handler: RequestListener;
  inFlight(): number;
  readonly draining: boolean;
  /** Readiness turns 503 and responses ask clients to close their connection. */
  startDraining(): void;
  /** Resolves true when no request is in flight, false when `timeoutMs` passed first. */
  drained(timeoutMs: number): Promise<boolean>;
}

/** The operational paths every service answers; everything else is the service's own. */
const OPS_PATHS = new Set(['/health', LIVE_PATH, READY_PATH, METRICS_PATH]);

/**
 * The route template of a request for metric labels, when the service does not say: the
 * operational paths, else "unmatched" (odd URLs must add no series). Services pass their own
 * (OpsOptions.routeTemplate), built on this one.
 */
export function opsRouteTemplate(url: string): string {
  const path = url.split('?', 1)[0]!;
  return OPS_PATHS.has(path) ? path : 'unmatched';
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

async function pingWithin(store: Pick<Store, 'ping'>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([store.ping().catch(() => false), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function operable(inner: RequestListener, options: OpsOptions): Operable {
  const { service, logger, store } = options;
  const metrics = options.metrics ?? processMetrics();
  const readyPaths = new Set(options.readyPaths ?? ['/health', READY_PATH]);
  const routeTemplate = options.routeTemplate ?? opsRouteTemplate;
  let inFlight = 0;
  let draining = false;
  let idleWaiters: Array<() => void> = [];

  const handler: RequestListener = (req: IncomingMessage, res: ServerResponse) => {
    const requestId = requestIdFrom(req.headers[REQUEST_ID_HEADER]);
    req.headers[REQUEST_ID_HEADER] = requestId;
    res.setHeader('X-Request-Id', requestId);
    if (draining) res.setHeader('Connection', 'close');
    const url = req.url ?? '/';
    const path = url.split('?', 1)[0]!;
    const route = routeTemplate(url);
    const method = req.method ?? 'GET';
    const t0 = performance.now();
    inFlight++;
    metrics.httpInFlight.inc({ service });
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      inFlight--;
      metrics.httpInFlight.dec({ service });
      const seconds = (performance.now() - t0) / 1000;
      // A response cut before it was sent (client gone, shutdown) has no status the client saw.
      const status = res.writableFinished ? String(res.statusCode) : 'aborted';
      metrics.httpRequests.observe({ service, method, route, status }, seconds);
      const line = { requestId, method, route, status: res.writableFinished ? res.statusCode : 'aborted', ms: Math.round(seconds * 1000) };
      if (route.includes('/health') || route === METRICS_PATH) logger.debug(line, 'request');
      else logger.info(line, 'request');
      if (inFlight === 0 && idleWaiters.length) {
        const waiters = idleWaiters;
        idleWaiters = [];
        for (const w of waiters) w();
      }
    };
    res.once('finish', finish);
    res.once('close', finish);

    runInRequest({ requestId }, () => {
      const read = method === 'GET' || method === 'HEAD';
      if (read && path === LIVE_PATH) {
        sendJson(res, 200, { status: 'ok' });
      } else if (read && readyPaths.has(path)) {
        if (draining) {
          sendJson(res, 503, { status: 'draining' }, { 'retry-after': '5' });
          return;
        }
        void pingWithin(store, READY_PING_TIMEOUT_MS).then((up) =>
          up ? sendJson(res, 200, { status: 'ok' }) : sendJson(res, 503, { status: 'unavailable' }, { 'retry-after': '5' }),
        );
      } else if (read && path === METRICS_PATH) {
        metrics.registry.metrics().then(
          (text) => {
            res.writeHead(200, { 'content-type': metrics.registry.contentType });
            res.end(text);
          },
          (e: unknown) => {
            logger.error({ err: e }, 'rendering metrics failed');
            sendJson(res, 500, { status: 'error' });
          },
        );
      } else {
        inner(req, res);
      }
    });
  };

  return {
    handler,
    inFlight: () => inFlight,
    get draining() {
      return draining;
    },
    startDraining() {
      draining = true;
    },
    drained(timeoutMs) {
      if (inFlight === 0) return Promise.resolve(true);
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(false), timeoutMs);
        idleWaiters.push(() => {
          clearTimeout(timer);
          resolve(true);
        });
      });
    },
  };
}

/** Puts a server's existing request listeners (Koa, Apollo handlers) behind {@link operable}. */
export function instrumentServer(server: Server, options: OpsOptions): Operable {
  const listeners = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  const ops = operable((req, res) => {
    for (const l of listeners) l.call(server, req, res);
  }, options);
  server.on('request', ops.handler);
  return ops;
}

/** Stops accepting, drains in-flight requests (bounded), then cuts what is left. */
async function drainServer(server: Server, ops: Operable, graceMs: number): Promise<boolean> {
  ops.startDraining();
  const closed = new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
  server.closeIdleConnections();
  const drained = await ops.drained(graceMs);
  server.closeAllConnections();
  await closed;
  return drained;
}

interface ServiceContext<C extends ServiceConfig = ServiceConfig> {
  config: C;
  logger: Logger;
  store: Store;
  metrics: ServiceMetrics;
}

interface BuiltService {
  /** Not listening yet. */
  server: Server;
  /** Releases what the service owns besides the HTTP server and the store (Apollo). */
  close?(): Promise<void>;
  /** Extra paths answering readiness (the gateway's /api/health). */
  readyPaths?: readonly string[];
  /** The metric label of a request's route (its own paths as templates); default: ops paths only. */
  routeTemplate?: (url: string) => string;
  /** Logged once listening. */
  describe?(address: string): string;
}

export interface ServiceSpec<C extends ServiceConfig> {
  name: string;
  /** The service's own config loader (one schema per process: loadGatewayConfig, …). */
  loadConfig: () => C;
  /** Which of its variables is its port (GATEWAY_PORT, LINEAGE_PORT, INGESTION_PORT). */
  port: (config: C) => number;
  /** Apply the Neo4j schema (constraints, indexes) before serving. */
  applySchema?: boolean;
  build(context: ServiceContext<C>): Promise<BuiltService>;
}

/**
 * A service's config, read by its own loader (main.ts chooses it): on an invalid environment,
 * every problem is logged and the process exits with status 2 before anything starts.
 */
function loadServiceConfig<C extends ServiceConfig>(name: string, load: () => C): C {
  try {
    return load();
  } catch (e) {
    if (e instanceof ConfigError) {
      createLogger(name, 'info').fatal(e.message);
      process.exit(2);
    }
    throw e;
  }
}

/** The process entry point of a service: never returns until the process exits. */
export async function runService<C extends ServiceConfig>(spec: ServiceSpec<C>): Promise<void> {
  const config = loadServiceConfig(spec.name, spec.loadConfig);
  const logger = createLogger(spec.name, config.LOG_LEVEL);
  process.on('uncaughtException', (e) => {
    logger.fatal({ err: e }, 'uncaught exception');
    process.exit(1);
  });
  process.on('unhandledRejection', (e) => {
    logger.fatal({ err: e }, 'unhandled rejection');
    process.exit(1);
  });
  const metrics = processMetrics();
  const store = createStore({
    uri: config.NEO4J_URI,
    user: config.NEO4J_USER,
    password: config.NEO4J_PASSWORD,
    database: config.NEO4J_DATABASE,
    onQuery: (event) => metrics.observeQuery(event),
    bookmarkWaitMs: config.BOOKMARK_WAIT_MS,
    changeLog: changeLogTopicsOf(config),
    ...(config.MAX_EDGES_PER_WRITE ? { maxEdgesPerWrite: config.MAX_EDGES_PER_WRITE } : {}),
  });
  if (spec.applySchema) await store.applySchema();
  const built = await spec.build({ config, logger, store, metrics });
  const ops = instrumentServer(built.server, {
    service: spec.name,
    logger,
    store,
    metrics,
    readyPaths: ['/health', READY_PATH, ...(built.readyPaths ?? [])],
    ...(built.routeTemplate ? { routeTemplate: built.routeTemplate } : {}),
  });
  const port = spec.port(config);
  await new Promise<void>((resolve, reject) => {
    built.server.once('error', reject);
    built.server.listen(port, config.HOST, () => {
      built.server.off('error', reject);
      resolve();
    });
  });
  const address = `http://${config.HOST}:${port}`;
  logger.info({ host: config.HOST, port }, built.describe?.(address) ?? `${spec.name} listening on ${address}`);

  const graceMs = config.SHUTDOWN_GRACE_MS;
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, inFlight: ops.inFlight() }, 'draining requests');
    // Whatever hangs below, the process still ends.
    setTimeout(() => {
      logger.error('shutdown did not finish in time; exiting');
      process.exit(1);
    }, graceMs + 5_000).unref();
    const drained = await drainServer(built.server, ops, graceMs);
    if (!drained) logger.warn({ inFlight: ops.inFlight(), graceMs }, 'requests still in flight after the grace period were cut');
    try {
      await built.close?.();
    } finally {
      await store.close();
    }
    logger.info('stopped');
    // pino writes asynchronously: let the last lines reach the log before the process ends.
    await new Promise<void>((resolve) => logger.flush(() => resolve()));
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}
