// The built-in entity types: what the process registry (entity-registry.ts) is built from unless
// start-up installs one of its own (a test that needs an extra type builds `[...BUILT_IN_ENTITY_TYPES, extra]`).
import type { EntityTypeDescriptor } from '../entity-types.ts';
import { CHART, DASHBOARD } from './bi.ts';
import { DATASET, SCHEMA_FIELD } from './datasets.ts';
import { KNOWN_GENERIC_ENTITY_TYPES } from './generic.ts';
import { ML_FEATURE, ML_FEATURE_TABLE, ML_MODEL, ML_MODEL_GROUP, ML_PRIMARY_KEY } from './ml.ts';
import { ACCESS_TOKEN, CORP_GROUP, CORP_USER, DATA_PLATFORM, QUERY, ROLE, TELEMETRY } from './people-and-platform.ts';
import { DATA_FLOW, DATA_JOB, DATA_PROCESS, DATA_PROCESS_INSTANCE } from './pipelines.ts';

// The modelled types (key aspect names and field orders as in KEY_ASPECTS of acryl-datahub 1.7), in
// registry order: the order GraphQL, the page's legend and every derived list follow.
export const MODELLED_ENTITY_TYPES: readonly EntityTypeDescriptor[] = [
  DATASET,
  SCHEMA_FIELD,
  DATA_JOB,
  DATA_FLOW,
  CHART,
  DASHBOARD,
  ML_PRIMARY_KEY,
  ML_FEATURE,
  ML_FEATURE_TABLE,
  ML_MODEL,
  ML_MODEL_GROUP,
  CORP_USER,
  CORP_GROUP,
  DATA_PLATFORM,
  QUERY,
  DATA_PROCESS_INSTANCE,
  DATA_PROCESS,
  ACCESS_TOKEN,
  ROLE,
  TELEMETRY,
];

export const BUILT_IN_ENTITY_TYPES: readonly EntityTypeDescriptor[] = Object.freeze([
  ...MODELLED_ENTITY_TYPES,
  ...KNOWN_GENERIC_ENTITY_TYPES,
]);
