// The layer boundaries (docs/CONTRIBUTING.md §Layers), checked by `npm run lint:layers` (part of
// `npm test`). Paths are resolved files, so a deep relative import is caught like a package one.
//
//   catalog/src:  model, runtime → nothing of the catalog (the bottom)
//                 store → model, runtime
//                 write, read → model, store, runtime (never each other)
//                 operations → any catalog layer
//   service-kit → catalog entry points; services → catalog and service-kit entry points;
//   gateway → the lineage subgraph's entry and the explorer's server; the explorer page → the
//   model's browser entry only, and nothing of Node.
//   explorer/, bench/, tools/: no import circles; tools use of the bench only its helpers (bench/lib).
const LAYER = (name) => `^catalog/src/${name}/`;
const ENTRY = '^catalog/src/[a-z]+/index\\.ts$';
// What the page bundles: model/browser.ts and the pure modules it reaches.
const BROWSER_SET =
  '^catalog/src/model/(browser|entity-types|descriptors/[a-z-]+|build-entity-registry|entity-registry|entity-type-spec|urn-key|key-search-fields|urn|errors|job-run)\\.ts$';
const PRODUCT = '^(catalog|service-kit|ingestion-service|lineage-service|gateway|explorer)/';

const forbid = (name, comment, from, to) => ({ name, comment, severity: 'error', from, to });

module.exports = {
  forbidden: [
    forbid(
      'model-is-pure',
      'The model does no I/O and knows no other layer.',
      { path: LAYER('model') },
      { path: `^catalog/src/(store|write|read|operations|runtime)/` },
    ),
    forbid(
      'runtime-is-a-base',
      'Config, logger and request context depend on no domain layer.',
      { path: LAYER('runtime') },
      { path: `^catalog/src/(model|store|write|read|operations)/` },
    ),
    forbid(
      'store-below-use-cases',
      'The store serves the write path and the readers, not the reverse.',
      { path: LAYER('store') },
      { path: `^catalog/src/(write|read|operations)/` },
    ),
    forbid(
      'write-beside-read',
      'The write path reads through the store, never through the readers or operations.',
      { path: LAYER('write') },
      { path: `^catalog/src/(read|operations)/` },
    ),
    forbid(
      'read-beside-write',
      'The readers never write and never reach operations.',
      { path: LAYER('read') },
      { path: `^catalog/src/(write|operations)/` },
    ),
    forbid(
      'catalog-below-services',
      'The domain knows no door.',
      { path: '^catalog/' },
      { path: '^(service-kit|ingestion-service|lineage-service|gateway|explorer)/' },
    ),
    forbid(
      'services-use-catalog-entries',
      'Services import the catalog through its package entry points only.',
      { path: '^(service-kit|ingestion-service|lineage-service|gateway)/' },
      { path: '^catalog/src/', pathNot: ENTRY },
    ),
    forbid(
      'doors-call-the-domain',
      "A door reads and writes through the domain (read, write, operations); of the store it may hold the handle's type, never run Cypher itself.",
      { path: '^(ingestion-service|lineage-service|gateway)/', pathNot: '\\.test\\.ts$' },
      { path: '^catalog/src/store/', dependencyTypesNot: ['type-only'] },
    ),
    forbid(
      'service-kit-below-services',
      'The shared HTTP/GraphQL plumbing knows no service.',
      { path: '^service-kit/' },
      { path: '^(ingestion-service|lineage-service|gateway|explorer)/' },
    ),
    forbid(
      'services-use-service-kit-entry',
      'Services import service-kit through its entry point.',
      { path: '^(ingestion-service|lineage-service|gateway)/' },
      { path: '^service-kit/', pathNot: '^service-kit/src/index\\.ts$' },
    ),
    forbid(
      'ingestion-alone',
      'The ingestion service imports no other service.',
      { path: '^ingestion-service/' },
      { path: '^(lineage-service|gateway|explorer)/' },
    ),
    forbid(
      'subgraph-alone',
      'The lineage subgraph imports no other service.',
      { path: '^lineage-service/' },
      { path: '^(ingestion-service|gateway|explorer)/' },
    ),
    forbid(
      'gateway-uses-entries',
      'The gateway composes the subgraph from its entry point and serves the built page.',
      { path: '^gateway/' },
      { path: '^(ingestion-service|lineage-service|explorer)/', pathNot: '^(lineage-service/src/index|explorer/serve)\\.ts$' },
    ),
    forbid(
      'page-uses-browser-entry',
      'The explorer page reads the model through its browser entry only.',
      { path: '^explorer/src/' },
      { path: '^(catalog|service-kit|ingestion-service|lineage-service|gateway)/', pathNot: '^catalog/src/model/browser\\.ts$' },
    ),
    forbid('page-has-no-node', 'The explorer page runs in a browser.', { path: '^explorer/src/' }, { dependencyTypes: ['core'] }),
    forbid(
      'browser-set-has-no-node',
      'What the page bundles of the model uses no Node API.',
      { path: BROWSER_SET },
      { dependencyTypes: ['core'] },
    ),
    forbid(
      'browser-set-is-closed',
      'What the page bundles of the model imports only itself.',
      { path: BROWSER_SET },
      { path: '^catalog/src/', pathNot: BROWSER_SET },
    ),
    forbid(
      'no-circular',
      'No import circle anywhere (product, page, benchmarks, tools): each module can be read after the ones it imports. Type-only imports count too (a type belongs with the module that holds the value).',
      { path: '^' },
      { circular: true },
    ),
    forbid(
      'tools-use-bench-lib',
      "A tool may share the benchmarks' helpers (bench/lib), never a runner or generator.",
      { path: '^tools/' },
      { path: '^bench/', pathNot: '^bench/lib/' },
    ),
    forbid(
      'product-without-test-code',
      'Product code never imports tests, tools or benchmarks.',
      { path: PRODUCT, pathNot: '\\.test\\.ts$' },
      { path: '^(test|tools|bench)/' },
    ),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'node', 'default'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'],
    },
  },
};
