// The embedded default shared by `npm start` and `npm run token`: where its data lives, its
// generated secrets (created once, kept in the data dir, never in the repo) and its Neo4j address.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { repoRoot } from './neo4j/neo4j-server.ts';
import { loadEmbeddedServerConfig } from '../catalog/src/runtime/config.ts';

const embedded = loadEmbeddedServerConfig();
/** `LINEAGE_DATA_DIR` moves it (another disk, or a second embedded catalog beside the first). */
export const dataDir = embedded.LINEAGE_DATA_DIR ? resolve(embedded.LINEAGE_DATA_DIR) : join(repoRoot, '.data');
export const neo4jHome = join(dataDir, 'neo4j');
export const defaultBoltPort = embedded.NEO4J_BOLT_PORT;

interface EmbeddedSecrets {
  signingKey: string;
  salt: string;
}

/** `dir` is the data dir (an operator tool's `--data-dir`), by default the one above. */
function embeddedSecrets(dir = dataDir): EmbeddedSecrets {
  const secretsFile = join(dir, 'secrets.json');
  if (existsSync(secretsFile)) return JSON.parse(readFileSync(secretsFile, 'utf8')) as EmbeddedSecrets;
  mkdirSync(dir, { recursive: true });
  const secrets = { signingKey: randomBytes(32).toString('base64url'), salt: randomBytes(16).toString('base64url') };
  writeFileSync(secretsFile, JSON.stringify(secrets, null, 2) + '\n', { mode: 0o600 });
  return secrets;
}

/** Environment for the services: the caller's settings win over the embedded defaults. */
export function embeddedEnv(neo4jUri: string, dir = dataDir): Record<string, string> {
  const s = embeddedSecrets(dir);
  return {
    NEO4J_URI: neo4jUri,
    DATAHUB_TOKEN_SERVICE_SIGNING_KEY: s.signingKey,
    DATAHUB_TOKEN_SERVICE_SALT: s.salt,
    ...Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== '')),
  };
}
