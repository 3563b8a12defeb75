import { DEFAULT_POLICIES, withDefaults } from './defaults.ts';
import {
  grantedPrivileges,
  isGranted,
  mayGrantOnSomeResource,
  unconditionalPrivileges,
  type PolicyActor,
  type ResourceSpec,
} from './engine.ts';
import { toPolicy, type Policy } from './policy-info.ts';

const user = (urn: string, groups: string[] = [], roles: string[] = []): PolicyActor => ({ urn, groups, roles });
const resource = (urn: string, fields: Partial<ResourceSpec> = {}): ResourceSpec => ({
  urn,
  type: urn.split(':')[2]!,
  domains: [],
  containers: [],
  tags: [],
  owners: [],
  platformInstance: undefined,
  groups: [],
  ...fields,
});
const ds = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)';
const chart = 'urn:li:chart:(looker,c1)';

function metadata(
  id: string,
  actors: Record<string, unknown>,
  privileges: string[],
  resources?: Record<string, unknown>,
  state = 'ACTIVE',
): Policy {
  return toPolicy(`urn:li:dataHubPolicy:${id}`, {
    displayName: id,
    type: 'METADATA',
    state,
    privileges,
    actors,
    ...(resources ? { resources } : {}),
  });
}
const filter = (field: string, values: string[], condition?: string) => ({
  filter: { criteria: [{ field, values, ...(condition ? { condition } : {}) }] },
});

describe('actors', () => {
  test('users, groups, roles and allUsers / allGroups', () => {
    const byUser = metadata('u', { users: ['urn:li:corpuser:a'] }, ['EDIT_LINEAGE']);
    const byGroup = metadata('g', { groups: ['urn:li:corpGroup:eng'] }, ['EDIT_LINEAGE']);
    const byRole = metadata('r', { roles: ['urn:li:dataHubRole:Lineage'] }, ['EDIT_LINEAGE']);
    const allGroups = metadata('ag', { allGroups: true }, ['EDIT_LINEAGE']);
    expect(isGranted([byUser], user('urn:li:corpuser:a'), 'EDIT_LINEAGE')).toBe(true);
    expect(isGranted([byUser], user('urn:li:corpuser:b'), 'EDIT_LINEAGE')).toBe(false);
    expect(isGranted([byGroup], user('urn:li:corpuser:b', ['urn:li:corpGroup:eng']), 'EDIT_LINEAGE')).toBe(true);
    expect(isGranted([byGroup], user('urn:li:corpuser:b', ['urn:li:corpGroup:ops']), 'EDIT_LINEAGE')).toBe(false);
    expect(isGranted([byRole], user('urn:li:corpuser:b', [], ['urn:li:dataHubRole:Lineage']), 'EDIT_LINEAGE')).toBe(true);
    expect(isGranted([allGroups], user('urn:li:corpuser:b'), 'EDIT_LINEAGE')).toBe(false);
    expect(isGranted([allGroups], user('urn:li:corpuser:b', ['urn:li:corpGroup:x']), 'EDIT_LINEAGE')).toBe(true);
    // The privilege must be one the policy names.
    expect(isGranted([byUser], user('urn:li:corpuser:a'), 'DELETE_ENTITY')).toBe(false);
  });

  test('resource owners, directly or through a group, by ownership type', () => {
    const owners = metadata('o', { resourceOwners: true }, ['EDIT_ENTITY']);
    const technical = metadata('t', { resourceOwners: true, resourceOwnersTypes: ['urn:li:ownershipType:__system__technical_owner'] }, [
      'EDIT_ENTITY',
    ]);
    const owned = resource(ds, {
      owners: [
        { urn: 'urn:li:corpuser:a', typeUrn: 'urn:li:ownershipType:__system__technical_owner' },
        { urn: 'urn:li:corpGroup:eng', typeUrn: 'urn:li:ownershipType:__system__business_owner' },
      ],
    });
    expect(isGranted([owners], user('urn:li:corpuser:a'), 'EDIT_ENTITY', owned)).toBe(true);
    expect(isGranted([owners], user('urn:li:corpuser:b', ['urn:li:corpGroup:eng']), 'EDIT_ENTITY', owned)).toBe(true);
    expect(isGranted([owners], user('urn:li:corpuser:c'), 'EDIT_ENTITY', owned)).toBe(false);
    expect(isGranted([owners], user('urn:li:corpuser:a'), 'EDIT_ENTITY')).toBe(false);
    expect(isGranted([technical], user('urn:li:corpuser:a'), 'EDIT_ENTITY', owned)).toBe(true);
    expect(isGranted([technical], user('urn:li:corpuser:b', ['urn:li:corpGroup:eng']), 'EDIT_ENTITY', owned)).toBe(false);
  });
});

describe('resources', () => {
  const a = user('urn:li:corpuser:a');
  test('type, urn (legacy fields and filter), domain, tag, container', () => {
    const legacyType = metadata('lt', { users: [a.urn] }, ['EDIT_ENTITY'], { type: 'dataset', allResources: true });
    const legacyUrn = metadata('lu', { users: [a.urn] }, ['EDIT_ENTITY'], { type: 'dataset', resources: [ds] });
    const byDomain = metadata('d', { users: [a.urn] }, ['EDIT_ENTITY'], filter('DOMAIN', ['urn:li:domain:sales']));
    const byTag = metadata('t', { users: [a.urn] }, ['EDIT_ENTITY'], filter('TAG', ['urn:li:tag:pii']));
    const byContainer = metadata('c', { users: [a.urn] }, ['EDIT_ENTITY'], filter('container', ['urn:li:container:db']));
    const d = resource(ds, { domains: ['urn:li:domain:sales'], tags: ['urn:li:tag:pii'], containers: ['urn:li:container:db'] });
    const other = resource('urn:li:dataset:(urn:li:dataPlatform:hive,db.u,PROD)');
    expect(isGranted([legacyType], a, 'EDIT_ENTITY', d)).toBe(true);
    expect(isGranted([legacyType], a, 'EDIT_ENTITY', resource(chart))).toBe(false);
    expect(isGranted([legacyUrn], a, 'EDIT_ENTITY', d)).toBe(true);
    expect(isGranted([legacyUrn], a, 'EDIT_ENTITY', other)).toBe(false);
    for (const p of [byDomain, byTag, byContainer]) {
      expect(isGranted([p], a, 'EDIT_ENTITY', d)).toBe(true);
      expect(isGranted([p], a, 'EDIT_ENTITY', other)).toBe(false);
      // A filtered policy needs a resource.
      expect(isGranted([p], a, 'EDIT_ENTITY')).toBe(false);
    }
  });

  test('every criterion must hold; conditions EQUALS, STARTS_WITH, NOT_EQUALS', () => {
    const both = metadata('b', { users: [a.urn] }, ['EDIT_ENTITY'], {
      filter: {
        criteria: [
          { field: 'TYPE', values: ['dataset'] },
          { field: 'DOMAIN', values: ['urn:li:domain:sales'] },
        ],
      },
    });
    expect(isGranted([both], a, 'EDIT_ENTITY', resource(ds, { domains: ['urn:li:domain:sales'] }))).toBe(true);
    expect(isGranted([both], a, 'EDIT_ENTITY', resource(chart, { domains: ['urn:li:domain:sales'] }))).toBe(false);
    const prefix = metadata(
      'p',
      { users: [a.urn] },
      ['EDIT_ENTITY'],
      filter('URN', ['urn:li:dataset:(urn:li:dataPlatform:hive'], 'STARTS_WITH'),
    );
    expect(isGranted([prefix], a, 'EDIT_ENTITY', resource(ds))).toBe(true);
    expect(isGranted([prefix], a, 'EDIT_ENTITY', resource(chart))).toBe(false);
    const notPii = metadata('n', { users: [a.urn] }, ['EDIT_ENTITY'], filter('TAG', ['urn:li:tag:pii', 'urn:li:tag:secret'], 'NOT_EQUALS'));
    expect(isGranted([notPii], a, 'EDIT_ENTITY', resource(ds))).toBe(true);
    expect(isGranted([notPii], a, 'EDIT_ENTITY', resource(ds, { tags: ['urn:li:tag:secret'] }))).toBe(false);
  });

  test('platform policies ignore the resource; inactive policies grant nothing', () => {
    const platform = toPolicy('urn:li:dataHubPolicy:pl', {
      displayName: 'p',
      type: 'PLATFORM',
      state: 'ACTIVE',
      privileges: ['MANAGE_POLICIES'],
      actors: { users: [a.urn] },
    });
    expect(isGranted([platform], a, 'MANAGE_POLICIES')).toBe(true);
    expect(isGranted([platform], a, 'MANAGE_POLICIES', resource(ds))).toBe(true);
    const off = metadata('off', { users: [a.urn] }, ['EDIT_ENTITY'], undefined, 'INACTIVE');
    expect(isGranted([off], a, 'EDIT_ENTITY', resource(ds))).toBe(false);
  });
});

describe('unconditional and granted privileges', () => {
  const a = user('urn:li:corpuser:a');
  const byDomain = metadata('d', { users: [a.urn] }, ['EDIT_LINEAGE'], filter('DOMAIN', ['urn:li:domain:sales']));
  test('a filtered or owner policy is not unconditional, but may grant on some resource', () => {
    const policies = withDefaults([byDomain]);
    expect(unconditionalPrivileges(policies, a).has('EDIT_LINEAGE')).toBe(false);
    expect(mayGrantOnSomeResource(policies, a, ['EDIT_LINEAGE'])).toBe(true);
    expect(mayGrantOnSomeResource([byDomain], user('urn:li:corpuser:b'), ['EDIT_LINEAGE'])).toBe(false);
    expect(mayGrantOnSomeResource([byDomain], a, ['DELETE_ENTITY'])).toBe(false);
    const d = resource(ds, { domains: ['urn:li:domain:sales'] });
    expect(grantedPrivileges(policies, a, d).has('EDIT_LINEAGE')).toBe(true);
    expect(grantedPrivileges(policies, a).has('EDIT_LINEAGE')).toBe(false);
  });

  test('defaults: all users view and mint their own token; owners edit what they own; roles as before', () => {
    const nobody = user('urn:li:corpuser:nobody');
    const held = unconditionalPrivileges(DEFAULT_POLICIES, nobody);
    expect([...held].filter((p) => ['VIEW_ENTITY_PAGE', 'GENERATE_PERSONAL_ACCESS_TOKENS', 'EDIT_ENTITY'].includes(p)).sort()).toEqual([
      'GENERATE_PERSONAL_ACCESS_TOKENS',
      'VIEW_ENTITY_PAGE',
    ]);
    const owned = resource(ds, { owners: [{ urn: nobody.urn, typeUrn: undefined }] });
    expect(isGranted(DEFAULT_POLICIES, nobody, 'EDIT_LINEAGE', owned)).toBe(true);
    expect(isGranted(DEFAULT_POLICIES, nobody, 'DELETE_ENTITY', owned)).toBe(false);
    const editor = unconditionalPrivileges(DEFAULT_POLICIES, user('urn:li:corpuser:e', [], ['urn:li:dataHubRole:Editor']));
    expect(
      editor.has('EDIT_ENTITY') && editor.has('CREATE_ENTITY') && !editor.has('DELETE_ENTITY') && !editor.has('GET_COUNTS_PRIVILEGE'),
    ).toBe(true);
  });

  test('a stored policy replaces the default of the same urn', () => {
    const off = toPolicy('urn:li:dataHubPolicy:7', {
      displayName: 'x',
      type: 'PLATFORM',
      state: 'INACTIVE',
      privileges: ['GENERATE_PERSONAL_ACCESS_TOKENS'],
      actors: { allUsers: true },
    });
    const policies = withDefaults([off]);
    expect(policies.filter((p) => p.urn === 'urn:li:dataHubPolicy:7')).toHaveLength(1);
    expect(unconditionalPrivileges(policies, user('urn:li:corpuser:n')).has('GENERATE_PERSONAL_ACCESS_TOKENS')).toBe(false);
  });
});
