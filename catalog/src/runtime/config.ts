// The one place configuration is read from the environment. Each process calls loadConfig once at
// start; an invalid environment fails fast with every problem listed. There are no default secrets:
// the embedded default (tools/start.ts) generates a signing key and salt and passes them in.
import { z } from 'zod';

// z.coerce.boolean() would turn "false" into true; accept only explicit spellings.
const booleanString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().positive();

const envSchema = z.object({
  NEO4J_URI: z.string().regex(/^(bolt|neo4j)(\+s|\+ssc)?:\/\//, 'must be a bolt:// or neo4j:// URI'),
  NEO4J_USER: z.string().optional(),
  NEO4J_PASSWORD: z.string().optional(),
  NEO4J_DATABASE: z.string().min(1).default('neo4j'),
  HOST: z.string().default('127.0.0.1'),
  INGESTION_PORT: port.default(8080),
  LINEAGE_PORT: port.default(8081),
  GATEWAY_PORT: port.default(9002),
  INGESTION_URL: z.string().url().optional(),
  LINEAGE_URL: z.string().url().optional(),
  /** The front door's base URL, for services that relay to it (the ingestion service's /api/graphql). */
  GATEWAY_URL: z.string().url().optional(),
  PUBLIC_BASE_URL: z.string().optional(),
  METADATA_SERVICE_AUTH_ENABLED: booleanString.default(true),
  DATAHUB_TOKEN_SERVICE_SIGNING_KEY: z.string().min(16, 'must be at least 16 characters'),
  DATAHUB_TOKEN_SERVICE_SALT: z.string().min(8, 'must be at least 8 characters'),
  DATAHUB_SYSTEM_CLIENT_ID: z.string().optional(),
  DATAHUB_SYSTEM_CLIENT_SECRET: z.string().optional(),
  /** strict: lineage aspects naming entities that do not exist are rejected (422). relaxed: DataHub's behaviour. */
  LINEAGE_EXISTENCE_MODE: z.enum(['strict', 'relaxed']).default('strict'),
  /**
   * Who may ask for relaxed mode per request (header X-Lineage-Existence-Mode): a comma list of
   * roles whose privileges suffice (Admin, Editor, Reader), or "none". Asking for strict is always allowed.
   */
  LINEAGE_RELAXED_ROLES: z
    .string()
    .default('Admin')
    .transform((v) => (v.trim().toLowerCase() === 'none' ? [] : v.split(',').map((r) => r.trim()).filter(Boolean)))
    .pipe(z.array(z.enum(['Admin', 'Editor', 'Reader']))),
  LINEAGE_MAX_HOPS: positiveInt.max(1000).default(1000),
  LINEAGE_MAX_RESULTS: positiveInt.default(1_000_000),
  LINEAGE_DEADLINE_MS: positiveInt.default(30_000),
  /** Longest wait of a request for the X-Lineage-Bookmark it presents before its 503 (docs/wire-contract.md §Read-your-writes). */
  BOOKMARK_WAIT_MS: positiveInt.default(30_000),
  MAX_BODY_BYTES: positiveInt.default(16 * 1024 * 1024),
  /**
   * The request bytes the ingestion service handles at once (docs/wire-contract.md §Body limits): a
   * request holds several times its body in the heap while it is parsed, validated and written, so
   * bodies past this sum wait their turn, unread. Raise it with the service's heap.
   */
  MAX_INFLIGHT_BODY_BYTES: positiveInt.default(16 * 1024 * 1024),
  /** Longest a request waits for its turn under MAX_INFLIGHT_BODY_BYTES; then 503 + Retry-After. */
  BODY_WAIT_MS: positiveInt.default(10_000),
  MAX_BATCH_PROPOSALS: positiveInt.default(10_000),
  /**
   * The most derived edges one write may add or refresh; a larger write is refused with a
   * 413 before anything is written. Unset: the store's default (DEFAULT_MAX_EDGES_PER_WRITE, sized
   * for the embedded Neo4j's db.memory.transaction.max of 512m); raise both together.
   */
  MAX_EDGES_PER_WRITE: positiveInt.optional(),
  /**
   * The change log and GET /openapi/v1/events/poll (docs/change-events.md), DataHub's variable. Off:
   * writes record no events and the poll route answers 404. Every process writing one store should agree.
   */
  EVENTS_API_ENABLED: booleanString.default(true),
  /**
   * The topics the change log records (docs/change-events.md §Cost): LINEAGE change events
   * (PlatformEvent_v1) and MetadataChangeLogs (MetadataChangeLog_Versioned_v1, one per aspect row
   * written: the more numerous, so most of the log's write time).
   */
  EVENTS_TOPICS: z
    .string()
    .default('PlatformEvent_v1,MetadataChangeLog_Versioned_v1')
    .transform((v) => v.split(',').map((t) => t.trim()).filter(Boolean))
    .pipe(z.array(z.enum(['PlatformEvent_v1', 'MetadataChangeLog_Versioned_v1'])).min(1, 'name at least one topic, or set EVENTS_API_ENABLED=false')),
  /** Days a change event is kept; older ones are pruned in the background by the ingestion service. */
  EVENTS_RETENTION_DAYS: positiveInt.default(7),
  /** How often the ingestion service prunes expired change events. */
  EVENTS_PRUNE_INTERVAL_MS: positiveInt.default(60_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** How long SIGTERM waits for in-flight requests before cutting them (below the launcher's 10 s SIGKILL). */
  SHUTDOWN_GRACE_MS: positiveInt.default(8_000),
  // Request limits (docs/reliability.md §Limits). Each refusal names the variable that sets it.
  /** Deepest field nesting of a GraphQL operation; the standard introspection query needs 15. */
  GRAPHQL_MAX_DEPTH: positiveInt.default(20),
  /** Aliased fields in one GraphQL operation (each alias is one more resolver run). */
  GRAPHQL_MAX_ALIASES: positiveInt.default(50),
  /** UTF-8 size of a GraphQL document (`query`), checked before parsing. */
  GRAPHQL_MAX_DOCUMENT_BYTES: positiveInt.default(128 * 1024),
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
});

export type Config = z.infer<typeof envSchema>;

export class ConfigError extends Error {}

/** The topics this process's writes record: none when the Events API is off. */
export const changeLogTopicsOf = (config: Pick<Config, 'EVENTS_API_ENABLED' | 'EVENTS_TOPICS'>): Config['EVENTS_TOPICS'] =>
  (config.EVENTS_API_ENABLED ? config.EVENTS_TOPICS : []);

/** `env` checked against `schema`; a ConfigError naming every bad variable otherwise. */
function parseEnv<T>(schema: z.ZodType<T>, env: Record<string, string | undefined>): T {
  // Treat empty strings as unset so `${VAR:-}` in docker-compose means "not configured".
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new ConfigError(`Invalid configuration:\n${problems}`);
  }
  return parsed.data;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  return parseEnv(envSchema, env);
}

/**
 * The topics an operator CLI's writes record (an import, a restore): the services' own variables,
 * read with the same rules, without requiring the rest of a service's configuration.
 */
export function changeLogTopicsFromEnv(env: Record<string, string | undefined> = process.env): Config['EVENTS_TOPICS'] {
  return changeLogTopicsOf(parseEnv(envSchema.pick({ EVENTS_API_ENABLED: true, EVENTS_TOPICS: true }), env));
}
