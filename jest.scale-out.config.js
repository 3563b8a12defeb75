// `npm run test:scale-out` (a step of .ci/run): two replicas of every service as processes on one
// Neo4j through a neo4j:// URI, behind round-robin fronts (test/scale-out/global-setup.ts). Runs the
// scale-out suite and the HTTP suites that reach the services only over HTTP — through the front
// when they build their stack with the defaults (test/support/external-stack.ts).
import base from './jest.config.js';

export default {
  testEnvironment: base.testEnvironment,
  extensionsToTreatAsEsm: base.extensionsToTreatAsEsm,
  transform: base.transform,
  testMatch: [
    '<rootDir>/test/scale-out/**/*.scale.ts',
    '<rootDir>/test/graphql/{entities,gateway,lineage-shapes,search,tutorial}.test.ts',
    '<rootDir>/test/ingestion/{rest-api,openapi,openlineage}.test.ts',
    '<rootDir>/test/hardening/concurrency.test.ts',
  ],
  testPathIgnorePatterns: base.testPathIgnorePatterns,
  modulePathIgnorePatterns: base.modulePathIgnorePatterns,
  globalSetup: '<rootDir>/test/scale-out/global-setup.ts',
  globalTeardown: '<rootDir>/test/scale-out/global-teardown.ts',
  testTimeout: base.testTimeout,
};
