// The existence mode of one request (docs/wire-contract.md §Existence mode): the catalog's default
// (LINEAGE_EXISTENCE_MODE), unless the client asks for another with a request header — which the
// `datahub-rest` sink sends through its `extra_headers` recipe option. Asking for strict is always
// allowed; asking for relaxed is allowed to actors holding the privileges of one of the roles the
// operator names (LINEAGE_RELAXED_ROLES, default Admin), since relaxed writes placeholders for
// entities nobody ingested.
import { badRequest, forbidden } from '../model/errors.ts';
import { ROLE_PRIVILEGES, ROLE_URNS, type Actor } from '../model/privileges.ts';
import type { ExistenceMode, WriteOptions } from './changes.ts';

/** The request header a client sends to choose its existence mode. */
export const EXISTENCE_MODE_HEADER = 'X-Lineage-Existence-Mode';

const RELAXABLE_ROLES = ['Admin', 'Editor', 'Reader'] as const;
type RelaxableRole = (typeof RELAXABLE_ROLES)[number];

export interface ExistencePolicy {
  /** LINEAGE_EXISTENCE_MODE: the mode of requests that do not ask. */
  defaultMode: ExistenceMode;
  /** LINEAGE_RELAXED_ROLES: who may ask for relaxed; empty = nobody. */
  relaxedRoles: readonly RelaxableRole[];
}

/**
 * Whether the actor holds a role's privileges. Roles are not carried on the actor, only their
 * privileges; holding every privilege of a role is holding the role (the root and system users hold
 * all), so naming Editor lets Admins in too.
 */
function holdsRole(actor: Actor, role: RelaxableRole): boolean {
  for (const p of ROLE_PRIVILEGES[ROLE_URNS[role]]) if (!actor.privileges.has(p)) return false;
  return true;
}

function mayAskRelaxed(actor: Actor, policy: ExistencePolicy): boolean {
  return policy.relaxedRoles.some((r) => holdsRole(actor, r));
}

/** The mode of a request: the header's value when given (400 if unknown, 403 if not allowed), else the default. */
function existenceModeOf(requested: string | undefined, actor: Actor, policy: ExistencePolicy): ExistenceMode {
  const asked = requested?.trim().toLowerCase();
  if (asked === undefined || asked === '') return policy.defaultMode;
  if (asked !== 'strict' && asked !== 'relaxed') {
    throw badRequest(`Invalid ${EXISTENCE_MODE_HEADER} header '${requested}': expected 'strict' or 'relaxed'`);
  }
  if (asked === 'relaxed' && policy.defaultMode !== 'relaxed' && !mayAskRelaxed(actor, policy)) {
    throw forbidden(
      `${actor.urn} may not ask for ${EXISTENCE_MODE_HEADER}: relaxed; the operator allows it to ${policy.relaxedRoles.length ? policy.relaxedRoles.join(', ') : 'nobody'} (LINEAGE_RELAXED_ROLES)`,
    );
  }
  return asked;
}

/** What the existence 422 tells this client about choosing the other mode. */
function existenceHintFor(actor: Actor, policy: ExistencePolicy): string {
  const how = `send the header '${EXISTENCE_MODE_HEADER}: relaxed' (datahub-rest sink: extra_headers in the recipe) to write placeholders for entities the request does not ingest`;
  if (mayAskRelaxed(actor, policy)) return `Ingest the named entities in the same request or earlier, or ${how}.`;
  const who = policy.relaxedRoles.length ? `actors with the role ${policy.relaxedRoles.join(' or ')}` : 'nobody';
  return `Ingest the named entities in the same request or earlier. Relaxed mode (${how}) is open to ${who} (LINEAGE_RELAXED_ROLES).`;
}

/** A request's write options about existence: its mode (the header `requested`, else the default) and the 422's hint. */
export function existenceOptionsOf(
  requested: string | undefined,
  actor: Actor,
  policy: ExistencePolicy,
): Pick<WriteOptions, 'existenceMode' | 'existenceHint'> {
  return { existenceMode: existenceModeOf(requested, actor, policy), existenceHint: existenceHintFor(actor, policy) };
}
