// `npm run test:faults`: the fault scenarios (test/faults/*.fault.ts), apart from `npm test`. Each
// scenario starts and breaks its own throwaway Neo4j and service processes, so there is no shared
// globalSetup, and files run one at a time (they are CPU-heavy and time-sensitive on 2 cores).
import base from './jest.config.js';

export default {
  testEnvironment: base.testEnvironment,
  extensionsToTreatAsEsm: base.extensionsToTreatAsEsm,
  transform: base.transform,
  testMatch: ['<rootDir>/test/faults/**/*.fault.ts'],
  testPathIgnorePatterns: base.testPathIgnorePatterns,
  modulePathIgnorePatterns: base.modulePathIgnorePatterns,
  maxWorkers: 1,
  testTimeout: 300000,
};
