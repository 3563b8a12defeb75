// Jest runs the TypeScript sources as ES modules through Babel (types stripped, nothing else;
// `npm run typecheck` does the type checking). Babel rather than swc: the registry mirror these
// machines use has no non-Linux swc binaries, and npm ci needs every optional platform package.
// Unit tests sit beside the code; integration tests on a real Neo4j live in test/.
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': ['babel-jest', { presets: [['@babel/preset-typescript', { allowDeclareFields: true }]] }],
  },
  testMatch: ['<rootDir>/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/.neo4j/', '/bench/'],
  modulePathIgnorePatterns: ['<rootDir>/.neo4j/'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testTimeout: 60000,
};
