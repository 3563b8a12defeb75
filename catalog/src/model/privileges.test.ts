import { isCatalogError } from './errors.ts';
import {
  assertCan,
  authorizeWrite,
  systemPrivilegeOf,
  can,
  editLineageDenied,
  getAspectDenied,
  getCountsDenied,
  graphqlDenied,
  ingestOperation,
  modifyEntityDenied,
  privilegesOf,
  restoreIndicesDenied,
  updateEntitiesDenied,
  PRIVILEGES,
  ROLE_URNS,
  ROOT_USER_URN,
  SYSTEM_ACTOR_URN,
  type Actor,
  type Operation,
} from './privileges.ts';

const actorWith = (roles: string[], urn = 'urn:li:corpuser:jdoe'): Actor => ({ urn, privileges: privilegesOf(roles, urn) });

const admin = actorWith([ROLE_URNS.Admin]);
const editor = actorWith([ROLE_URNS.Editor]);
const reader = actorWith([ROLE_URNS.Reader]);
const nobody = actorWith([]);

// Expected outcome per docs/wire-contract.md §Auth: [Admin, Editor, Reader, no role]. A user with no role
// holds what DataHub's default All Users policies grant: viewing entities and a token for itself.
const matrix: [Operation, boolean, boolean, boolean, boolean][] = [
  ['READ', true, true, true, true],
  ['EXISTS', true, true, true, true],
  ['INGEST', true, true, false, false],
  ['INGEST_CREATE', true, true, false, false],
  ['EDIT_LINEAGE', true, true, false, false],
  ['DELETE', true, false, false, false],
  ['GET_COUNT', true, false, false, false],
  ['RESTORE_INDICES', true, false, false, false],
  ['GENERATE_PERSONAL_ACCESS_TOKEN', true, true, true, true],
  ['MANAGE_ACCESS_TOKENS', true, false, false, false],
];

test.each(matrix)('%s: Admin=%p Editor=%p Reader=%p none=%p', (op, a, e, r, n) => {
  expect([can(admin, op), can(editor, op), can(reader, op), can(nobody, op)]).toEqual([a, e, r, n]);
});

test('every operation is covered by the matrix', () => {
  const covered = new Set(matrix.map(([op]) => op));
  const all: Operation[] = [
    'READ',
    'INGEST',
    'INGEST_CREATE',
    'DELETE',
    'EXISTS',
    'GET_COUNT',
    'RESTORE_INDICES',
    'EDIT_LINEAGE',
    'GENERATE_PERSONAL_ACCESS_TOKEN',
    'MANAGE_ACCESS_TOKENS',
  ];
  expect([...covered].sort()).toEqual([...all].sort());
});

test('single privileges grant exactly the operations DataHub ties them to', () => {
  const only = (p: (typeof PRIVILEGES)[number]): Actor => ({ urn: 'urn:li:corpuser:x', privileges: new Set([p]) });
  expect(can(only('EXISTS_ENTITY'), 'EXISTS')).toBe(true);
  expect(can(only('EXISTS_ENTITY'), 'READ')).toBe(false);
  expect(can(only('DELETE_ENTITY'), 'READ')).toBe(true);
  expect(can(only('DELETE_ENTITY'), 'EXISTS')).toBe(true);
  expect(can(only('DELETE_ENTITY'), 'INGEST')).toBe(false);
  expect(can(only('CREATE_ENTITY'), 'INGEST_CREATE')).toBe(true);
  expect(can(only('CREATE_ENTITY'), 'INGEST')).toBe(false);
  expect(can(only('EDIT_LINEAGE'), 'EDIT_LINEAGE')).toBe(true);
  expect(can(only('EDIT_LINEAGE'), 'INGEST')).toBe(false);
  expect(can(only('EDIT_ENTITY'), 'EDIT_LINEAGE')).toBe(true);
  expect(can(only('VIEW_ENTITY_PAGE'), 'EDIT_LINEAGE')).toBe(false);
  expect(can(only('MANAGE_ACCESS_TOKENS'), 'GENERATE_PERSONAL_ACCESS_TOKEN')).toBe(true);
});

test('privilegesOf unions roles and ignores unknown ones', () => {
  expect(privilegesOf([ROLE_URNS.Reader, ROLE_URNS.Editor], 'urn:li:corpuser:x')).toEqual(
    privilegesOf([ROLE_URNS.Editor], 'urn:li:corpuser:x'),
  );
  expect(privilegesOf(['urn:li:dataHubRole:Owner', 'urn:li:dataHubRole:admin'], 'urn:li:corpuser:x')).toEqual(
    privilegesOf([], 'urn:li:corpuser:x'),
  );
  expect(privilegesOf([], 'urn:li:corpuser:x').has('EDIT_ENTITY')).toBe(false);
  expect(privilegesOf([ROLE_URNS.Admin], 'urn:li:corpuser:x')).toEqual(new Set(PRIVILEGES));
});

test('root user is Admin without roleMembership; the system actor has everything', () => {
  expect(privilegesOf([], ROOT_USER_URN)).toEqual(new Set(PRIVILEGES));
  expect(privilegesOf([ROLE_URNS.Reader], ROOT_USER_URN)).toEqual(new Set(PRIVILEGES));
  expect(privilegesOf([], SYSTEM_ACTOR_URN)).toEqual(new Set(PRIVILEGES));
});

test('ingestOperation maps change types', () => {
  expect(ingestOperation('UPSERT')).toBe('INGEST');
  expect(ingestOperation('PATCH')).toBe('INGEST');
  expect(ingestOperation('RESTATE')).toBe('INGEST');
  expect(ingestOperation('CREATE')).toBe('INGEST_CREATE');
  expect(ingestOperation('CREATE_ENTITY')).toBe('INGEST_CREATE');
  expect(ingestOperation('DELETE')).toBe('DELETE');
});

test('assertCan throws forbidden with the given message, and passes when allowed', () => {
  expect(() => assertCan(admin, 'DELETE', 'x')).not.toThrow();
  let thrown: unknown;
  try {
    assertCan(reader, 'INGEST', modifyEntityDenied(reader.urn, 'urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)'));
  } catch (e) {
    thrown = e;
  }
  expect(isCatalogError(thrown) && thrown.kind).toBe('forbidden');
  expect((thrown as Error).message).toBe(
    'User urn:li:corpuser:jdoe is unauthorized to modify entity: HttpStatus: 403 Urn: urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)',
  );
});

test('DataHub denial messages', () => {
  expect(modifyEntityDenied('urn:li:corpuser:a', ['urn:li:tag:x', 'urn:li:tag:y'])).toBe(
    'User urn:li:corpuser:a is unauthorized to modify entity: HttpStatus: 403 Urn: urn:li:tag:x, HttpStatus: 403 Urn: urn:li:tag:y',
  );
  expect(
    modifyEntityDenied('urn:li:corpuser:a', 'urn:li:tag:x').startsWith('User urn:li:corpuser:a is unauthorized to modify entity'),
  ).toBe(true);
  expect(getAspectDenied('urn:li:tag:x')).toBe('User is unauthorized to get aspect for urn:li:tag:x');
  expect(getCountsDenied()).toBe('User is unauthorized to get aspect counts.');
  expect(restoreIndicesDenied()).toBe('User is unauthorized to restore indices.');
  expect(updateEntitiesDenied()).toBe('User is unauthorized to update entities.');
  expect(editLineageDenied('dataset')).toBe('Unauthorized to edit dataset lineage. Please contact your DataHub administrator.');
  expect(graphqlDenied()).toBe('Unauthorized to perform this action. Please contact your DataHub administrator.');
});

describe('authorizeWrite: by what a write writes', () => {
  const target = (entityType: string, aspectName: string | undefined, changeType = 'UPSERT') => ({
    urn: `urn:li:${entityType}:x`,
    entityType,
    ...(aspectName === undefined ? {} : { aspectName }),
    changeType,
  });
  const outcome = (actor: Actor, t: ReturnType<typeof target>) => {
    try {
      authorizeWrite(actor, t);
      return 'ok';
    } catch (e) {
      return isCatalogError(e) ? e.kind : 'other';
    }
  };

  test.each([
    ['corpuser', 'roleMembership', 'MANAGE_USERS_AND_GROUPS'],
    ['corpGroup', 'roleMembership', 'MANAGE_USERS_AND_GROUPS'],
    ['corpuser', 'groupMembership', 'MANAGE_USERS_AND_GROUPS'],
    ['corpuser', 'corpUserStatus', 'MANAGE_USERS_AND_GROUPS'],
    ['corpuser', 'corpUserCredentials', 'MANAGE_USER_CREDENTIALS'],
    ['dataHubPolicy', 'dataHubPolicyInfo', 'MANAGE_POLICIES'],
    ['dataHubRole', 'dataHubRoleInfo', 'MANAGE_POLICIES'],
    ['dataHubSecret', 'dataHubSecretValue', 'MANAGE_SECRETS'],
    ['inviteToken', 'inviteToken', 'MANAGE_USER_CREDENTIALS'],
    ['dataHubAccessToken', 'dataHubAccessTokenInfo', 'MANAGE_ACCESS_TOKENS'],
  ])('%s.%s needs %s, whatever the change type', (entityType, aspectName, privilege) => {
    expect(systemPrivilegeOf(target(entityType, aspectName))).toBe(privilege);
    for (const changeType of ['UPSERT', 'PATCH', 'CREATE', 'CREATE_ENTITY', 'RESTATE']) {
      expect(outcome(editor, target(entityType, aspectName, changeType))).toBe('forbidden');
      expect(outcome(reader, target(entityType, aspectName, changeType))).toBe('forbidden');
    }
    // An actor with EDIT_ENTITY and exactly that privilege may write (tokens aside, below).
    const holder: Actor = { urn: 'urn:li:corpuser:h', privileges: new Set(['EDIT_ENTITY', privilege as (typeof PRIVILEGES)[number]]) };
    expect(outcome(holder, target(entityType, aspectName))).toBe(entityType === 'dataHubAccessToken' ? 'validation' : 'ok');
    expect(outcome(editor, target(entityType, aspectName))).toBe('forbidden');
  });

  test('the message names the missing privilege', () => {
    expect(() => authorizeWrite(editor, target('corpuser', 'roleMembership'))).toThrow(
      /writing roleMembership needs the MANAGE_USERS_AND_GROUPS privilege/,
    );
  });

  test('ordinary metadata needs only the route privilege', () => {
    expect(systemPrivilegeOf(target('dataset', 'status'))).toBeUndefined();
    expect(systemPrivilegeOf(target('corpuser', 'corpUserInfo'))).toBeUndefined();
    expect(outcome(editor, target('corpuser', 'corpUserInfo'))).toBe('ok');
    expect(outcome(editor, target('dataset', 'status', 'DELETE'))).toBe('forbidden');
  });

  test('deleting a user, a group or a system entity needs its privilege; access tokens are only ever deleted', () => {
    expect(systemPrivilegeOf(target('corpuser', undefined, 'DELETE_ENTITY'))).toBe('MANAGE_USERS_AND_GROUPS');
    expect(systemPrivilegeOf(target('corpGroup', undefined, 'DELETE_ENTITY'))).toBe('MANAGE_USERS_AND_GROUPS');
    expect(systemPrivilegeOf(target('dataset', undefined, 'DELETE_ENTITY'))).toBeUndefined();
    const deleter: Actor = { urn: 'urn:li:corpuser:d', privileges: new Set(['DELETE_ENTITY']) };
    expect(outcome(deleter, target('corpuser', undefined, 'DELETE_ENTITY'))).toBe('forbidden');
    expect(outcome(deleter, target('dataset', undefined, 'DELETE_ENTITY'))).toBe('ok');
    expect(outcome(admin, target('dataHubAccessToken', undefined, 'DELETE_ENTITY'))).toBe('ok');
    expect(outcome(admin, target('dataHubAccessToken', 'dataHubAccessTokenInfo', 'DELETE'))).toBe('ok');
    expect(outcome(admin, target('dataHubAccessToken', 'dataHubAccessTokenKey', 'UPSERT'))).toBe('validation');
  });
});
