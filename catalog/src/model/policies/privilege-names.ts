// The privileges a policy may grant, named as DataHub's PoliciesConfig names them, in its two kinds:
// platform privileges (what an actor may do to the catalog as a whole — manage users, tokens,
// policies; granted by PLATFORM policies and never tied to a resource) and metadata privileges
// (what an actor may do to an entity — view, edit, delete; granted by METADATA policies, on the
// resources their filter selects). A policy naming a privilege outside its kind's list is refused.

export const PLATFORM_PRIVILEGES = [
  'MANAGE_POLICIES',
  'MANAGE_INGESTION',
  'MANAGE_SECRETS',
  'MANAGE_USERS_AND_GROUPS',
  'MANAGE_USER_CREDENTIALS',
  'MANAGE_ACCESS_TOKENS',
  'GENERATE_PERSONAL_ACCESS_TOKENS',
  'VIEW_ANALYTICS',
  'GET_ANALYTICS_PRIVILEGE',
  'MANAGE_DOMAINS',
  'CREATE_DOMAINS',
  'MANAGE_GLOBAL_ANNOUNCEMENTS',
  'MANAGE_TESTS',
  'VIEW_TESTS',
  'MANAGE_GLOSSARIES',
  'MANAGE_TAGS',
  'CREATE_TAGS',
  'MANAGE_GLOBAL_VIEWS',
  'MANAGE_GLOBAL_OWNERSHIP_TYPES',
  'MANAGE_STRUCTURED_PROPERTIES',
  'MANAGE_DOCUMENTATION_FORMS',
  'RESTORE_INDICES_PRIVILEGE',
  'GET_TIMESERIES_INDEX_SIZES_PRIVILEGE',
  'TRUNCATE_TIMESERIES_INDEX_PRIVILEGE',
  'GET_ES_TASK_STATUS_PRIVILEGE',
  'SET_WRITEABLE_PRIVILEGE',
  'APPLY_RETENTION_PRIVILEGE',
  // GET /openapi/v1/system-info/*: the server's settings (DataHub's SystemInfoController).
  'MANAGE_SYSTEM_OPERATIONS',
  // Reading the change log (GET /openapi/v1/events/poll).
  'GET_PLATFORM_EVENTS',
] as const;

export const METADATA_PRIVILEGES = [
  'VIEW_ENTITY_PAGE',
  'EXISTS_ENTITY',
  'CREATE_ENTITY',
  'EDIT_ENTITY',
  'EDIT_LINEAGE',
  'DELETE_ENTITY',
  'EDIT_ENTITY_TAGS',
  'EDIT_ENTITY_GLOSSARY_TERMS',
  'EDIT_ENTITY_OWNERS',
  'EDIT_ENTITY_DOCS',
  'EDIT_ENTITY_DOC_LINKS',
  'EDIT_ENTITY_STATUS',
  'EDIT_DOMAINS_PRIVILEGE',
  'EDIT_ENTITY_DATA_PRODUCTS',
  'EDIT_DEPRECATION_PRIVILEGE',
  'EDIT_ENTITY_ASSERTIONS',
  'EDIT_ENTITY_INCIDENTS',
  'EDIT_ENTITY_QUERIES',
  'EDIT_ENTITY_EMBED',
  'EDIT_ENTITY_PROPERTIES',
  'EDIT_DATASET_COL_TAGS',
  'EDIT_DATASET_COL_GLOSSARY_TERMS',
  'EDIT_DATASET_COL_DESCRIPTION',
  'VIEW_DATASET_USAGE',
  'VIEW_DATASET_PROFILE',
  'EDIT_TAG_COLOR',
  'EDIT_GROUP_MEMBERS',
  'EDIT_USER_PROFILE',
  'EDIT_CONTACT_INFO',
  'MANAGE_DATA_PRODUCTS',
  'SEARCH_PRIVILEGE',
  'GET_ENTITY_PRIVILEGE',
  'GET_COUNTS_PRIVILEGE',
  'GET_TIMESERIES_ASPECT_PRIVILEGE',
  'GET_TIMELINE_PRIVILEGE',
  'PRODUCE_PLATFORM_EVENT_PRIVILEGE',
] as const;

export const PRIVILEGES = [...PLATFORM_PRIVILEGES, ...METADATA_PRIVILEGES] as const;

export type Privilege = (typeof PRIVILEGES)[number];

const KNOWN: ReadonlySet<string> = new Set(PRIVILEGES);

export function isPrivilege(name: string): name is Privilege {
  return KNOWN.has(name);
}
