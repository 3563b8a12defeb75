// listAccessTokens and getAccessTokenMetadata (docs/wire-contract.md §Auth), as DataHub's
// ListAccessTokensResolver and GetAccessTokenMetadataResolver answer them: a token manager sees
// every token; anyone who may generate personal tokens sees their own by filtering on ownerUrn.
import { badRequest, forbidden, notFound } from '../../model/errors.ts';
import { assertCan, can, graphqlDenied, type Actor } from '../../model/privileges.ts';
import type { Store } from '../../store/store.ts';
import { accessTokenInfo, type AccessTokenMetadata, type TokenSecrets } from './access-tokens.ts';
import { accessTokenUrn, tokenId } from './tokens.ts';

interface TokenFilter {
  field: string;
  values?: readonly string[] | null;
  value?: string | null;
  condition?: string | null;
  negated?: boolean | null;
}

/** The stored info fields a filter may name (DataHub's searchable fields of dataHubAccessTokenInfo). */
const FILTER_FIELDS = ['name', 'actorUrn', 'ownerUrn', 'description'] as const;
type FilterField = (typeof FILTER_FIELDS)[number];

const URN_PREFIX = accessTokenUrn('');

function metadataOf(urn: string, info: Record<string, unknown>): AccessTokenMetadata {
  const text = (k: string) => (typeof info[k] === 'string' ? info[k] : null);
  const num = (k: string) => (typeof info[k] === 'number' ? info[k] : null);
  return {
    urn,
    id: urn.slice(URN_PREFIX.length),
    name: text('name') ?? '',
    description: text('description'),
    actorUrn: text('actorUrn') ?? '',
    ownerUrn: text('ownerUrn') ?? '',
    createdAt: num('createdAt') ?? 0,
    expiresAt: num('expiresAt'),
  };
}

interface Matcher {
  field: FilterField;
  values: readonly string[];
  negated: boolean;
}

function matcherOf(f: TokenFilter, i: number): Matcher {
  if (!(FILTER_FIELDS as readonly string[]).includes(f.field)) {
    throw badRequest(`filters[${i}].field: unknown field '${f.field}' (one of ${FILTER_FIELDS.join(', ')})`);
  }
  if (f.condition != null && f.condition !== 'EQUAL')
    throw badRequest(`filters[${i}].condition: only EQUAL is supported, got '${f.condition}'`);
  const values = f.values ?? (f.value == null ? [] : [f.value]);
  return { field: f.field as FilterField, values, negated: f.negated === true };
}

const matches = (t: AccessTokenMetadata, m: Matcher) => m.values.includes(t[m.field] ?? '') !== m.negated;

export interface ListAccessTokensInput {
  start?: number | null;
  count?: number | null;
  filters?: readonly TokenFilter[] | null;
}

export interface AccessTokenPage {
  start: number;
  count: number;
  total: number;
  tokens: AccessTokenMetadata[];
}

const DEFAULT_COUNT = 20;

export async function listAccessTokens(store: Store, actor: Actor, input: ListAccessTokensInput): Promise<AccessTokenPage> {
  const filters = input.filters ?? [];
  const matchers = filters.map(matcherOf);
  // DataHub: a filter ownerUrn = [the caller] is asking for one's own tokens.
  const listsOwn = filters.some(
    (f) => f.field === 'ownerUrn' && (f.values ?? []).length === 1 && f.values?.[0] === actor.urn && !f.negated,
  );
  if (!can(actor, 'MANAGE_ACCESS_TOKENS') && !(listsOwn && can(actor, 'GENERATE_PERSONAL_ACCESS_TOKEN'))) throw forbidden(graphqlDenied());
  const start = input.start ?? 0;
  const count = input.count ?? DEFAULT_COUNT;
  if (!Number.isInteger(start) || start < 0) throw badRequest(`start: must be a non-negative integer, got ${start}`);
  if (!Number.isInteger(count) || count < 0) throw badRequest(`count: must be a non-negative integer, got ${count}`);
  const rows = await store.read((tx) => tx.run<{ urn: string; value: string }>('auth/access-token-infos', {}));
  const all = rows
    .map((r) => metadataOf(r.urn, JSON.parse(r.value) as Record<string, unknown>))
    .filter((t) => matchers.every((m) => matches(t, m)))
    // DataHub sorts by expiresAt, descending; tokens that never expire first, then by id for a stable page.
    .sort((a, b) => (b.expiresAt ?? Infinity) - (a.expiresAt ?? Infinity) || a.id.localeCompare(b.id));
  const tokens = all.slice(start, start + count);
  return { start, count: tokens.length, total: all.length, tokens };
}

/** getAccessTokenMetadata: what is stored about a presented token (token managers only); 404 when revoked or unknown. */
export async function accessTokenMetadata(store: Store, actor: Actor, secrets: TokenSecrets, token: string): Promise<AccessTokenMetadata> {
  assertCan(actor, 'MANAGE_ACCESS_TOKENS', graphqlDenied());
  const id = tokenId(token, secrets.salt);
  const info = await accessTokenInfo(store, id);
  if (!info) throw notFound('No such access token: it was revoked, or never issued by this catalog.');
  return metadataOf(accessTokenUrn(id), info);
}
