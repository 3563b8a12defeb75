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
  PUBLIC_BASE_URL: z.string().optional(),
  METADATA_SERVICE_AUTH_ENABLED: booleanString.default(true),
  DATAHUB_TOKEN_SERVICE_SIGNING_KEY: z.string().min(16, 'must be at least 16 characters'),
  DATAHUB_TOKEN_SERVICE_SALT: z.string().min(8, 'must be at least 8 characters'),
  DATAHUB_SYSTEM_CLIENT_ID: z.string().optional(),
  DATAHUB_SYSTEM_CLIENT_SECRET: z.string().optional(),
  /** strict: lineage aspects naming entities that do not exist are rejected (422). relaxed: DataHub's behaviour. */
  LINEAGE_EXISTENCE_MODE: z.enum(['strict', 'relaxed']).default('strict'),
  LINEAGE_MAX_HOPS: positiveInt.max(1000).default(1000),
  LINEAGE_MAX_RESULTS: positiveInt.default(1_000_000),
  LINEAGE_DEADLINE_MS: positiveInt.default(30_000),
  MAX_BODY_BYTES: positiveInt.default(16 * 1024 * 1024),
  MAX_BATCH_PROPOSALS: positiveInt.default(10_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Config = z.infer<typeof envSchema>;

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Treat empty strings as unset so `${VAR:-}` in docker-compose means "not configured".
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new ConfigError(`Invalid configuration:\n${problems}`);
  }
  return parsed.data;
}
