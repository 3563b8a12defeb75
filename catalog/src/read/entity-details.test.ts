import { jobRunOf } from './entity-details.ts';

test('a completed run: start from the properties, duration to the completing event', () => {
  const run = jobRunOf(
    'urn:li:dataProcessInstance:r',
    JSON.stringify({ name: 'r', created: { time: 1000, actor: 'urn:li:corpuser:x' }, customProperties: { errorMessage: 'boom' } }),
    JSON.stringify({ timestampMillis: 4000, status: 'COMPLETE', result: { type: 'FAILURE', nativeResultType: 'FAIL' } }),
  );
  expect(run).toEqual({
    urn: 'urn:li:dataProcessInstance:r',
    name: 'r',
    status: 'COMPLETE',
    result: 'FAILURE',
    startTimeMillis: 1000,
    durationMillis: 3000,
    errorMessage: 'boom',
  });
});

test('a running run has no duration; a stated durationMillis wins; unreadable aspects give nulls', () => {
  expect(
    jobRunOf('u', JSON.stringify({ created: { time: 1000 } }), JSON.stringify({ timestampMillis: 1000, status: 'STARTED' })).durationMillis,
  ).toBeNull();
  expect(
    jobRunOf(
      'u',
      JSON.stringify({ created: { time: 1000 } }),
      JSON.stringify({ timestampMillis: 9000, status: 'COMPLETE', durationMillis: 500 }),
    ).durationMillis,
  ).toBe(500);
  expect(jobRunOf('u', 'not json', null)).toEqual({
    urn: 'u',
    name: null,
    status: null,
    result: null,
    startTimeMillis: null,
    durationMillis: null,
    errorMessage: null,
  });
});
