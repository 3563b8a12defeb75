// The policies every catalog starts with: DataHub's boot policies (same urns, same actors), with
// privileges chosen so the three built-in roles keep exactly the rights they had before policies
// existed (docs/wire-contract.md §Auth, "Default policies"). Where this differs from DataHub's list:
// - Editors edit every entity type (DataHub's editor-metadata-policy-entities restricts EDIT_ENTITY to
//   data assets; ours never did), so EDIT_ENTITY sits in editor-metadata-policy;
// - CREATE_ENTITY and EXISTS_ENTITY, which DataHub grants through its API privilege table, are
//   granted here to Editors (both) and Readers (EXISTS_ENTITY), as before;
// - GET_COUNTS_PRIVILEGE (aspects?action=getCount) stays with Admins: DataHub also grants it to
//   Readers, Editors and all users, which would widen those roles.
// A stored policy with the same urn replaces its default (operations/auth/policy-store.ts).
import { toPolicy, type Policy } from './policy-info.ts';
import { METADATA_PRIVILEGES, PLATFORM_PRIVILEGES, type Privilege } from './privilege-names.ts';

const ROOT_USER = 'urn:li:corpuser:datahub';
const ROLE = { Admin: 'urn:li:dataHubRole:Admin', Editor: 'urn:li:dataHubRole:Editor', Reader: 'urn:li:dataHubRole:Reader' } as const;

/** What every user may read: DataHub's "All Users - View Entity Page", less the counts. */
const VIEW_PRIVILEGES: readonly Privilege[] = [
  'VIEW_ENTITY_PAGE',
  'SEARCH_PRIVILEGE',
  'GET_TIMESERIES_ASPECT_PRIVILEGE',
  'GET_ENTITY_PRIVILEGE',
  'GET_TIMELINE_PRIVILEGE',
];

/** What owners may do to the assets they own and Editors may not do to every asset. */
const FOR_OWNERS_NOT_EDITORS: readonly Privilege[] = [
  'EDIT_ENTITY_OWNERS',
  'EDIT_GROUP_MEMBERS',
  'EDIT_USER_PROFILE',
  'EDIT_CONTACT_INFO',
  'GET_COUNTS_PRIVILEGE',
];
/** The metadata privileges DataHub's Editors policy keeps back ("all metadata privileges but deleting"). */
const KEPT_FROM_EDITORS: ReadonlySet<Privilege> = new Set<Privilege>([
  ...FOR_OWNERS_NOT_EDITORS,
  'DELETE_ENTITY',
  'EDIT_ENTITY_INCIDENTS',
  'EDIT_ENTITY_EMBED',
  'EDIT_ENTITY_PROPERTIES',
  'PRODUCE_PLATFORM_EVENT_PRIVILEGE',
]);
const EDITOR_PRIVILEGES = METADATA_PRIVILEGES.filter((p) => !KEPT_FROM_EDITORS.has(p));
/** Existence and creation are not about one asset, so owners are not granted them. */
const OWNER_PRIVILEGES: readonly Privilege[] = [
  ...EDITOR_PRIVILEGES.filter((p) => p !== 'EXISTS_ENTITY' && p !== 'CREATE_ENTITY'),
  ...FOR_OWNERS_NOT_EDITORS,
];

type Actors = { users?: string[]; roles?: string[]; allUsers?: boolean; resourceOwners?: boolean };

function policy(
  id: string,
  type: 'PLATFORM' | 'METADATA',
  displayName: string,
  description: string,
  actors: Actors,
  privileges: readonly Privilege[],
  editable: boolean,
): Policy {
  const info = {
    displayName,
    description,
    type,
    state: 'ACTIVE',
    privileges: [...new Set(privileges)],
    actors: { resourceOwners: false, allUsers: false, allGroups: false, users: [], groups: [], roles: [], ...actors },
    editable,
  };
  return toPolicy(`urn:li:dataHubPolicy:${id}`, info);
}

export const DEFAULT_POLICIES: readonly Policy[] = [
  policy(
    '0',
    'PLATFORM',
    'Root User - All Platform Privileges',
    'Grants all platform privileges to root user.',
    { users: [ROOT_USER] },
    PLATFORM_PRIVILEGES,
    false,
  ),
  policy(
    '1',
    'METADATA',
    'Root User - Edit and View All Resources',
    'Grants all edit and view privileges for all resources to root user.',
    { users: [ROOT_USER] },
    METADATA_PRIVILEGES,
    false,
  ),
  policy(
    '7',
    'PLATFORM',
    'All Users - Base Platform Privileges',
    'Grants base platform privileges to ALL users of DataHub. Change this policy to alter that behavior.',
    { allUsers: true },
    ['VIEW_ANALYTICS', 'GENERATE_PERSONAL_ACCESS_TOKENS'],
    true,
  ),
  policy(
    'view-entity-page-all',
    'METADATA',
    'All Users - View Entity Page',
    'Grants entity view to all users',
    { allUsers: true },
    VIEW_PRIVILEGES,
    true,
  ),
  policy(
    'view-dataset-sensitive',
    'METADATA',
    'All Users - View Dataset Sensitive Information',
    'Grants viewing privileges of usage and profile information of all datasets for all users',
    { allUsers: true },
    ['VIEW_DATASET_USAGE', 'VIEW_DATASET_PROFILE'],
    true,
  ),
  policy(
    'admin-platform-policy',
    'PLATFORM',
    'Admins - Platform Policy',
    'Admins have all platform privileges.',
    { roles: [ROLE.Admin] },
    PLATFORM_PRIVILEGES,
    false,
  ),
  policy(
    'admin-metadata-policy',
    'METADATA',
    'Admins - Metadata Policy',
    'Admins have all metadata privileges.',
    { roles: [ROLE.Admin] },
    METADATA_PRIVILEGES,
    false,
  ),
  policy(
    'editor-platform-policy',
    'PLATFORM',
    'Editors - Platform Policy',
    'Editors can manage domains, glossaries, tags and announcements.',
    { roles: [ROLE.Editor] },
    ['GENERATE_PERSONAL_ACCESS_TOKENS', 'MANAGE_DOMAINS', 'MANAGE_GLOBAL_ANNOUNCEMENTS', 'MANAGE_GLOSSARIES', 'MANAGE_TAGS'],
    false,
  ),
  policy(
    'editor-metadata-policy',
    'METADATA',
    'Editors - Metadata Policy',
    'Editors have all metadata privileges but deleting.',
    { roles: [ROLE.Editor] },
    EDITOR_PRIVILEGES,
    false,
  ),
  policy(
    'reader-platform-policy',
    'PLATFORM',
    'Readers - Platform Policy',
    'Readers have no platform privileges beyond all users.',
    { roles: [ROLE.Reader] },
    [],
    false,
  ),
  policy(
    'reader-metadata-policy',
    'METADATA',
    'Readers - Metadata Policy',
    'Readers can view all assets.',
    { roles: [ROLE.Reader] },
    [...VIEW_PRIVILEGES, 'EXISTS_ENTITY', 'VIEW_DATASET_USAGE', 'VIEW_DATASET_PROFILE'],
    false,
  ),
  policy(
    'asset-owners-metadata-policy',
    'METADATA',
    'Asset Owners - Metadata Policy',
    'Asset Owners have all metadata privileges ONLY for assets they own.',
    { resourceOwners: true },
    OWNER_PRIVILEGES,
    true,
  ),
];

/** The active policies: the defaults, each replaced by a stored policy of the same urn, plus the other stored ones. */
export function withDefaults(stored: readonly Policy[]): Policy[] {
  const storedUrns = new Set(stored.map((p) => p.urn));
  return [...DEFAULT_POLICIES.filter((p) => !storedUrns.has(p.urn)), ...stored];
}
