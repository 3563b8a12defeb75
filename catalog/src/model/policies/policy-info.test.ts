import { parseUrn } from '../urn.ts';
import { validateAspect } from '../aspects/index.ts';
import { CatalogError } from '../errors.ts';
import { toPolicy } from './policy-info.ts';

const urn = parseUrn('urn:li:dataHubPolicy:p1');
const valid = {
  displayName: 'p',
  type: 'METADATA',
  state: 'ACTIVE',
  privileges: ['EDIT_LINEAGE'],
  actors: { users: ['urn:li:corpuser:a'] },
};

function errorOf(value: unknown): CatalogError {
  try {
    validateAspect('dataHubPolicyInfo', value, urn);
  } catch (e) {
    if (e instanceof CatalogError) return e;
    throw e;
  }
  throw new Error('accepted');
}

test('a valid policy passes and keeps unknown fields', () => {
  expect(validateAspect('dataHubPolicyInfo', { ...valid, extra: 1 }, urn)).toEqual({ ...valid, extra: 1 });
});

test('malformed policies are 422 naming the field', () => {
  const missing = errorOf({ ...valid, actors: undefined });
  expect([missing.kind, missing.message]).toEqual(['validation', expect.stringContaining('actors')]);
  const badState = errorOf({ ...valid, state: 'ON' });
  expect([badState.kind, badState.message]).toEqual(['validation', expect.stringContaining('state')]);
  const badCondition = errorOf({
    ...valid,
    resources: { filter: { criteria: [{ field: 'TYPE', values: ['dataset'], condition: 'LIKE' }] } },
  });
  expect([badCondition.kind, badCondition.message]).toEqual([
    'validation',
    expect.stringContaining('resources.filter.criteria[0].condition'),
  ]);
});

test('an unknown privilege or filter field is 400 naming it', () => {
  const privilege = errorOf({ ...valid, privileges: ['EDIT_LINEAGE', 'FLY'] });
  expect([privilege.kind, privilege.message]).toEqual(['badRequest', expect.stringContaining("'FLY'")]);
  const field = errorOf({ ...valid, resources: { filter: { criteria: [{ field: 'COLOUR', values: ['red'] }] } } });
  expect([field.kind, field.message]).toEqual(['badRequest', expect.stringContaining("'COLOUR'")]);
});

test('legacy resources become TYPE and URN criteria; RESOURCE_TYPE is TYPE', () => {
  expect(toPolicy(urn.text, { ...valid, resources: { type: 'dataset', resources: ['urn:x'] } }).criteria).toEqual([
    { field: 'TYPE', values: ['dataset'], condition: 'EQUALS' },
    { field: 'URN', values: ['urn:x'], condition: 'EQUALS' },
  ]);
  expect(toPolicy(urn.text, { ...valid, resources: { type: 'dataset', resources: ['urn:x'], allResources: true } }).criteria).toHaveLength(
    1,
  );
  expect(
    toPolicy(urn.text, { ...valid, resources: { filter: { criteria: [{ field: 'resource_type', values: ['chart'] }] } } }).criteria,
  ).toEqual([{ field: 'TYPE', values: ['chart'], condition: 'EQUALS' }]);
  expect(toPolicy(urn.text, valid).criteria).toBeUndefined();
});
