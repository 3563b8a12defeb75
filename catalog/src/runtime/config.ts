// The one place configuration is read from the environment: one schema per process, composed of
// the shared pieces (config-pieces.ts), so each process validates only what it reads. Each process
// loads its own once at start (a service's main.ts, an operator CLI, the `npm start` launcher); an
// invalid environment fails fast with every problem listed. There are no default secrets: the
// embedded default (tools/embedded.ts) generates a signing key and salt and passes them in.
// docs/configuration.md lists every variable with the processes that read it; its test
// (configuration-doc.test.ts) checks that table against the schemas below.
import { z } from 'zod';
import {
  authentication,
  bookmarkWait,
  changeLog,
  embeddedServer,
  eventsRetention,
  existence,
  gatewaySubgraphs,
  graphqlLimits,
  ingestionLimits,
  lineageLimits,
  lineageStamps,
  logging,
  neo4jConnection,
  neo4jUri,
  ports,
  rootLogin,
  serviceUrls,
  serving,
  tokenKeys,
  viewAuthorization,
  writes,
} from './config-pieces.ts';

/** What every service process reads: its store, its log, how it listens, who its callers are. */
const service = z.object({
  ...neo4jConnection.shape,
  ...bookmarkWait.shape,
  ...logging.shape,
  ...serving.shape,
  ...authentication.shape,
});

const ingestionSchema = service.extend({
  ...writes.shape,
  ...viewAuthorization.shape,
  ...changeLog.shape,
  ...eventsRetention.shape,
  ...ingestionLimits.shape,
  ...existence.shape,
  ...lineageStamps.shape,
  // The deadline of the GraphQL relay to the front door is a lineage search's and a margin.
  ...lineageLimits.pick({ LINEAGE_DEADLINE_MS: true }).shape,
  ...ports.pick({ INGESTION_PORT: true, GATEWAY_PORT: true }).shape,
  ...serviceUrls.pick({ GATEWAY_URL: true, PUBLIC_BASE_URL: true }).shape,
});

const lineageSchema = service.extend({
  ...writes.shape,
  ...viewAuthorization.shape,
  ...changeLog.shape,
  ...lineageLimits.shape,
  ...graphqlLimits.shape,
  ...ports.pick({ LINEAGE_PORT: true }).shape,
});

const gatewaySchema = service.extend({
  ...graphqlLimits.shape,
  ...rootLogin.shape,
  ...gatewaySubgraphs.shape,
  ...ports.pick({ GATEWAY_PORT: true, LINEAGE_PORT: true }).shape,
  ...serviceUrls.pick({ INGESTION_URL: true, LINEAGE_URL: true }).shape,
});

/**
 * The operator CLIs (token, export, import, restore-indices, migrate): the store, falling back on
 * the embedded server; what their writes record; the token keys only `npm run token` needs.
 */
const toolsSchema = z.object({
  ...neo4jConnection.shape,
  NEO4J_URI: neo4jUri.optional(),
  ...embeddedServer.shape,
  ...changeLog.shape,
  ...tokenKeys.partial().shape,
});

/**
 * `npm start` (tools/stack.ts): the embedded server, the wiring of the three services it starts,
 * and what it needs to mint the token it prints. The services check the rest themselves.
 */
const launcherSchema = z.object({
  ...neo4jConnection.shape,
  ...embeddedServer.shape,
  ...changeLog.shape,
  ...tokenKeys.shape,
  ...ports.shape,
  ...serviceUrls.pick({ INGESTION_URL: true, LINEAGE_URL: true }).shape,
});

/** Every process's schema, by the name docs/configuration.md gives it in its "Read by" column. */
export const PROCESS_CONFIG_SCHEMAS = {
  ingestion: ingestionSchema,
  lineage: lineageSchema,
  gateway: gatewaySchema,
  tools: toolsSchema,
  'npm start': launcherSchema,
} as const;
export type ProcessName = keyof typeof PROCESS_CONFIG_SCHEMAS;

/** Every variable a service reads: for code that stands in for all three at once (tests, the bench). */
const productSchema = ingestionSchema.extend({ ...lineageSchema.shape, ...gatewaySchema.shape, ...serviceUrls.shape });

export type IngestionConfig = z.infer<typeof ingestionSchema>;
export type LineageConfig = z.infer<typeof lineageSchema>;
export type GatewayConfig = z.infer<typeof gatewaySchema>;
export type ToolsConfig = Omit<z.infer<typeof toolsSchema>, 'NEO4J_URI'> & { NEO4J_URI: string };
export type LauncherConfig = z.infer<typeof launcherSchema>;
/** Every variable any service reads (what {@link loadConfig} validates). */
export type Config = z.infer<typeof productSchema>;
/** What the service runtime (service-kit) itself reads of any service's config. */
export type ServiceConfig = z.infer<typeof service> & Partial<z.infer<typeof writes> & z.infer<typeof changeLog>>;
export type AuthenticationConfig = z.infer<typeof authentication>;
export type LogLevel = z.infer<typeof logging>['LOG_LEVEL'];
export type EventTopicName = z.infer<typeof changeLog>['EVENTS_TOPICS'][number];

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

/** The topics this process's writes record: none when the Events API is off, or the process reads no change-log setting. */
export const changeLogTopicsOf = (config: Partial<Pick<Config, 'EVENTS_API_ENABLED' | 'EVENTS_TOPICS'>>): EventTopicName[] =>
  config.EVENTS_API_ENABLED && config.EVENTS_TOPICS ? config.EVENTS_TOPICS : [];

/** `env` checked against `schema`; a ConfigError naming every bad variable otherwise. */
function parseEnv<T>(schema: z.ZodType<T>, env: Env): T {
  // Treat empty strings as unset so `${VAR:-}` in docker-compose means "not configured".
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new ConfigError(`Invalid configuration:\n${problems}`);
  }
  return parsed.data;
}

export const loadIngestionConfig = (env: Env = process.env): IngestionConfig => parseEnv(ingestionSchema, env);
export const loadLineageConfig = (env: Env = process.env): LineageConfig => parseEnv(lineageSchema, env);
export const loadGatewayConfig = (env: Env = process.env): GatewayConfig => parseEnv(gatewaySchema, env);
export const loadLauncherConfig = (env: Env = process.env): LauncherConfig => parseEnv(launcherSchema, env);

/** The operator CLIs' config; without NEO4J_URI, the embedded server on NEO4J_BOLT_PORT. */
export function loadToolsConfig(env: Env = process.env): ToolsConfig {
  const config = parseEnv(toolsSchema, env);
  return { ...config, NEO4J_URI: config.NEO4J_URI ?? `bolt://127.0.0.1:${config.NEO4J_BOLT_PORT}` };
}

/** Where the embedded server keeps its data and listens (tools/embedded.ts, shared by `npm start` and the CLIs). */
export const loadEmbeddedServerConfig = (env: Env = process.env): z.infer<typeof embeddedServer> => parseEnv(embeddedServer, env);

/** Every variable any service reads, validated at once. */
export function loadConfig(env: Env = process.env): Config {
  return parseEnv(productSchema, env);
}

/**
 * The topics an operator CLI's writes record (an import, a restore): the services' own variables,
 * read with the same rules, without requiring the rest of a service's configuration.
 */
export function changeLogTopicsFromEnv(env: Env = process.env): EventTopicName[] {
  return changeLogTopicsOf(parseEnv(changeLog, env));
}
