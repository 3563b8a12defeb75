// The settings shared between processes, one zod piece per concern. config.ts composes them into
// one schema per process, so each process validates exactly the variables it reads and each
// variable's rules are written once. What a variable means is documented in docs/configuration.md.
import { z } from 'zod';

// z.coerce.boolean() would turn "false" into true; accept only explicit spellings.
const booleanString = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes');

const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().positive();

export const neo4jUri = z.string().regex(/^(bolt|neo4j)(\+s|\+ssc)?:\/\//, 'must be a bolt:// or neo4j:// URI');

/** Where the store is. */
export const neo4jConnection = z.object({
  NEO4J_URI: neo4jUri,
  NEO4J_USER: z.string().optional(),
  NEO4J_PASSWORD: z.string().optional(),
  NEO4J_DATABASE: z.string().min(1).default('neo4j'),
});

/** The embedded server `npm start` runs, which the operator tools fall back on. */
export const embeddedServer = z.object({
  NEO4J_BOLT_PORT: port.default(7687),
  LINEAGE_DATA_DIR: z.string().optional(),
});

/** Access tokens are signed and their stored hash salted with these: no default, ever. */
export const tokenKeys = z.object({
  DATAHUB_TOKEN_SERVICE_SIGNING_KEY: z.string().min(16, 'must be at least 16 characters'),
  DATAHUB_TOKEN_SERVICE_SALT: z.string().min(8, 'must be at least 8 characters'),
});

/** How a request's caller is established (docs/wire-contract.md §Auth). */
export const authentication = tokenKeys.extend({
  METADATA_SERVICE_AUTH_ENABLED: booleanString.default(true),
  DATAHUB_SYSTEM_CLIENT_ID: z.string().optional(),
  DATAHUB_SYSTEM_CLIENT_SECRET: z.string().optional(),
});

/** The root user's password at the front door's /logIn (DataHub keeps it in the frontend's user.props); unset: root signs in with tokens only. */
export const rootLogin = z.object({
  DATAHUB_ROOT_PASSWORD: z.string().min(1).optional(),
});

export const logging = z.object({
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

/** Longest wait of a request for the X-Lineage-Bookmark it presents before its 503 (docs/wire-contract.md §Read-your-writes). */
export const bookmarkWait = z.object({
  BOOKMARK_WAIT_MS: positiveInt.default(30_000),
});

/** What a process that writes aspects and edges reads besides its store. */
export const writes = z.object({
  /**
   * The most derived edges one write may add or refresh; a larger write is refused with a
   * 413 before anything is written. Unset: the store's default (DEFAULT_MAX_EDGES_PER_WRITE, sized
   * for the embedded Neo4j's db.memory.transaction.max of 512m); raise both together.
   */
  MAX_EDGES_PER_WRITE: positiveInt.optional(),
});

/** How often lineage stamps move when nothing else does (docs/lineage-model.md §Aspect rows). */
export const lineageStamps = z.object({
  /**
   * A write whose value differs from the stored one only in lineage stamps (when lineage was last
   * seen), each by less than this, writes nothing: re-runs of a scheduled job cost only their runs,
   * and time windows are accurate to this. 0: every such write is written, as any change.
   */
  LINEAGE_STAMP_GRANULARITY_MS: z.coerce.number().int().min(0).default(3_600_000),
});

/**
 * The change log (docs/change-events.md), DataHub's variable. Off: writes record no events and the
 * poll route answers 404. Every process writing one store should agree.
 */
export const changeLog = z.object({
  EVENTS_API_ENABLED: booleanString.default(true),
  /**
   * The topics the change log records (docs/change-events.md §Cost): LINEAGE change events
   * (PlatformEvent_v1) and MetadataChangeLogs (MetadataChangeLog_Versioned_v1, one per aspect row
   * written: the more numerous, so most of the log's write time).
   */
  EVENTS_TOPICS: z
    .string()
    .default('PlatformEvent_v1,MetadataChangeLog_Versioned_v1')
    .transform((v) =>
      v
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean),
    )
    .pipe(
      z
        .array(z.enum(['PlatformEvent_v1', 'MetadataChangeLog_Versioned_v1']))
        .min(1, 'name at least one topic, or set EVENTS_API_ENABLED=false'),
    ),
});

/**
 * DataHub's view authorization (its VIEW_AUTHORIZATION_ENABLED, `authorization.view.enabled`): off,
 * reads need only the privilege to read at all; on, each entity read is judged by the policies.
 * Clients learn it from GET /openapi/v1/system-info/properties/simple.
 */
export const viewAuthorization = z.object({
  VIEW_AUTHORIZATION_ENABLED: booleanString.default(false),
});

/** The ingestion service prunes expired change events in the background. */
export const eventsRetention = z.object({
  /** Days a change event is kept. */
  EVENTS_RETENTION_DAYS: positiveInt.default(7),
  /** How often the pruning runs. */
  EVENTS_PRUNE_INTERVAL_MS: positiveInt.default(60_000),
});

/** How a service process listens, receives and stops. */
export const serving = z.object({
  HOST: z.string().default('127.0.0.1'),
  /** How long SIGTERM waits for in-flight requests before cutting them (below the launcher's 10 s SIGKILL). */
  SHUTDOWN_GRACE_MS: positiveInt.default(8_000),
  /** Time to receive a whole request (node's server.requestTimeout); 408 beyond it. */
  HTTP_REQUEST_TIMEOUT_MS: positiveInt.default(120_000),
  /** Time to receive the request headers (server.headersTimeout); at most HTTP_REQUEST_TIMEOUT_MS. */
  HTTP_HEADERS_TIMEOUT_MS: positiveInt.default(20_000),
  /**
   * How long an idle client connection is kept open for the next request (server.keepAliveTimeout).
   * Longer than the idle timeout of common load balancers (60 s) and of our own callers' pools
   * (service-kit/src/http-options.ts), so a connection is never closed just as a request is sent on it.
   */
  HTTP_KEEP_ALIVE_TIMEOUT_MS: positiveInt.default(65_000),
  // Request limits (docs/wire-contract.md §Limits). Each refusal names the variable that sets it.
  MAX_BODY_BYTES: positiveInt.default(16 * 1024 * 1024),
});

/** What the ingestion service admits (docs/wire-contract.md §Body limits). */
export const ingestionLimits = z.object({
  /**
   * The request bytes the ingestion service handles at once: a request holds several times its
   * body in the heap while it is parsed, validated and written, so bodies past this sum wait their
   * turn, unread. Raise it with the service's heap.
   */
  MAX_INFLIGHT_BODY_BYTES: positiveInt.default(16 * 1024 * 1024),
  /** Longest a request waits for its turn under MAX_INFLIGHT_BODY_BYTES; then 503 + Retry-After. */
  BODY_WAIT_MS: positiveInt.default(10_000),
  MAX_BATCH_PROPOSALS: positiveInt.default(10_000),
});

/** The ingestion service's existence rule (docs/wire-contract.md §Existence mode). */
export const existence = z.object({
  /** strict: lineage aspects naming entities that do not exist are rejected (422). relaxed: DataHub's behaviour. */
  LINEAGE_EXISTENCE_MODE: z.enum(['strict', 'relaxed']).default('strict'),
  /**
   * Who may ask for relaxed mode per request (header X-Lineage-Existence-Mode): a comma list of
   * roles whose privileges suffice (Admin, Editor, Reader), or "none". Asking for strict is always allowed.
   */
  LINEAGE_RELAXED_ROLES: z
    .string()
    .default('Admin')
    .transform((v) =>
      v.trim().toLowerCase() === 'none'
        ? []
        : v
            .split(',')
            .map((r) => r.trim())
            .filter(Boolean),
    )
    .pipe(z.array(z.enum(['Admin', 'Editor', 'Reader']))),
});

/** Bounds of one lineage search. */
export const lineageLimits = z.object({
  LINEAGE_MAX_HOPS: positiveInt.max(1000).default(1000),
  LINEAGE_MAX_RESULTS: positiveInt.default(1_000_000),
  LINEAGE_DEADLINE_MS: positiveInt.default(30_000),
});

/** Limits of one GraphQL operation (the subgraph and the front door). */
export const graphqlLimits = z.object({
  /** Deepest field nesting of a GraphQL operation; the standard introspection query needs 15. */
  GRAPHQL_MAX_DEPTH: positiveInt.default(20),
  /** Aliased fields in one GraphQL operation (each alias is one more resolver run). */
  GRAPHQL_MAX_ALIASES: positiveInt.default(50),
  /** UTF-8 size of a GraphQL document (`query`), checked before parsing. */
  GRAPHQL_MAX_DOCUMENT_BYTES: positiveInt.default(128 * 1024),
});

/** The listen ports, and the addresses by which the processes find each other. */
export const ports = z.object({
  INGESTION_PORT: port.default(8080),
  LINEAGE_PORT: port.default(8081),
  GATEWAY_PORT: port.default(9002),
});

export const serviceUrls = z.object({
  INGESTION_URL: z.string().url().optional(),
  LINEAGE_URL: z.string().url().optional(),
  /** The front door's base URL, for services that relay to it (the ingestion service's /api/graphql). */
  GATEWAY_URL: z.string().url().optional(),
  /** The catalog's public address, which GET /config reports as baseUrl. */
  PUBLIC_BASE_URL: z.string().optional(),
});

/** A subgraph's name in GATEWAY_EXTRA_SUBGRAPHS: what composition and its errors call it. */
const SUBGRAPH_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;

/**
 * GATEWAY_EXTRA_SUBGRAPHS as the list it names: `name=url` entries, comma-separated. Every bad entry
 * is its own issue, so the startup error lists them all.
 */
function extraSubgraphList(value: string, ctx: z.RefinementCtx): Array<{ name: string; url: string }> {
  const entries: Array<{ name: string; url: string }> = [];
  const problem = (message: string) => ctx.addIssue({ code: 'custom', message });
  for (const raw of value.split(',').map((e) => e.trim())) {
    const eq = raw.indexOf('=');
    const name = raw.slice(0, Math.max(eq, 0)).trim();
    const url = raw.slice(eq + 1).trim();
    if (eq < 0 || !name || !url) {
      problem(`entry ${JSON.stringify(raw)} is not name=url`);
      continue;
    }
    if (!SUBGRAPH_NAME.test(name))
      problem(`subgraph name ${JSON.stringify(name)} must start with a letter and hold only letters, digits, _ and -`);
    else if (name.toLowerCase() === 'lineage') problem('subgraph name "lineage" is the catalog\'s own subgraph; choose another');
    else if (entries.some((e) => e.name.toLowerCase() === name.toLowerCase()))
      problem(`subgraph name ${JSON.stringify(name)} appears twice`);
    if (!URL.canParse(url) || !['http:', 'https:'].includes(new URL(url).protocol))
      problem(`subgraph ${JSON.stringify(name)}: ${JSON.stringify(url)} is not an http:// or https:// URL`);
    entries.push({ name, url });
  }
  return entries;
}

/** The subgraphs the front door composes beside the lineage subgraph (docs/configuration.md §Extra subgraphs). */
export const gatewaySubgraphs = z.object({
  /** `name=url[,name=url…]`: each subgraph's GraphQL endpoint, whose SDL the gateway reads at start. */
  GATEWAY_EXTRA_SUBGRAPHS: z.string().transform(extraSubgraphList).optional(),
  /** How long the gateway waits at start for each extra subgraph to answer its SDL. */
  GATEWAY_SUBGRAPH_WAIT_MS: positiveInt.default(300_000),
});
