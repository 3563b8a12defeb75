// W-query's request shapes: the filters, windows and text queries a lineage search is timed with,
// each as scrollAcrossLineage input beside the degree filter (bench/workloads/query.ts runs them).
import type { LineageQuery } from '../../catalog/src/read/lineage/service.ts';
import { BASE_TIME } from '../generate.ts';

/** The shapes, as scrollAcrossLineage input beside the degree filter. The generator's edges are stamped over 10 days from BASE_TIME. */
export function requestShapes(): Array<{ shape: string; input: Partial<LineageQuery>; reads?: string }> {
  const baseTime = BASE_TIME;
  const degree3 = { field: 'degree', values: ['3+'] };
  return [
    {
      shape: 'types DASHBOARD, CHART',
      input: { orFilters: [{ and: [degree3, { field: '_entityType', values: ['DASHBOARD', 'CHART'] }] }] },
    },
    {
      shape: 'platform ≠ hive (negated)',
      input: { orFilters: [{ and: [degree3, { field: 'platform', values: ['urn:li:dataPlatform:hive'], negated: true }] }] },
    },
    {
      shape: 'two groups: dashboards, or snowflake',
      input: {
        orFilters: [
          { and: [degree3, { field: '_entityType', values: ['DASHBOARD'] }] },
          { and: [degree3, { field: 'platform', values: ['urn:li:dataPlatform:snowflake'] }] },
        ],
      },
    },
    {
      shape: 'time window (5 of 10 days)',
      input: { orFilters: [{ and: [degree3] }], startTimeMillis: baseTime, endTimeMillis: baseTime + 5 * 86_400_000 },
    },
    {
      shape: 'time window + types DASHBOARD, CHART',
      input: {
        orFilters: [{ and: [degree3, { field: '_entityType', values: ['DASHBOARD', 'CHART'] }] }],
        startTimeMillis: baseTime,
        endTimeMillis: baseTime + 5 * 86_400_000,
      },
    },
    {
      shape: 'text query "dashboard"',
      input: { orFilters: [{ and: [degree3] }], query: 'dashboard' },
      reads: "toLower(n.urn) CONTAINS 'dashboard' OR toLower(n.name) CONTAINS 'dashboard' OR toLower(n.description) CONTAINS 'dashboard'",
    },
    {
      shape: 'urn filter (one urn left out, negated)',
      input: {
        orFilters: [{ and: [degree3, { field: 'urn', values: ['urn:li:dataset:(urn:li:dataPlatform:hive,none,PROD)'], negated: true }] }],
      },
      reads: "n.urn <> 'urn:li:dataset:(urn:li:dataPlatform:hive,none,PROD)'",
    },
    {
      shape: 'name contains "_t1"',
      input: { orFilters: [{ and: [degree3, { field: 'name', values: ['_t1'], condition: 'CONTAIN' }] }] },
      reads: "toLower(n.name) CONTAINS '_t1'",
    },
    {
      shape: 'name > "d5" (a comparison)',
      input: { orFilters: [{ and: [degree3, { field: 'name', values: ['d5'], condition: 'GREATER_THAN' }] }] },
      reads: "n.name > 'd5'",
    },
    {
      shape: 'env PROD and platform.keyword snowflake',
      input: { orFilters: [{ and: [degree3, { field: 'env', values: ['PROD'] }, { field: 'platform.keyword', values: ['snowflake'] }] }] },
    },
    // Per-hop control: in Neo4j when it changes nothing, else streamed hop by hop to the service,
    // which holds a page and a window.
    {
      shape: 'ignoreAsHops DATA_JOB',
      input: { orFilters: [{ and: [degree3] }], lineageFlags: { ignoreAsHops: [{ entityType: 'DATA_JOB' }] } },
    },
    { shape: 'per-hop limit 1,000', input: { orFilters: [{ and: [degree3] }], lineageFlags: { entitiesExploredPerHopLimit: 1_000 } } },
    { shape: 'per-hop limit 100', input: { orFilters: [{ and: [degree3] }], lineageFlags: { entitiesExploredPerHopLimit: 100 } } },
  ];
}

/** From a column: its reach lifted onto datasets (the default), or the columns themselves. */
export function columnShapes(): Array<{ shape: string; input: Partial<LineageQuery>; domainOnly?: true }> {
  const degree3 = { field: 'degree', values: ['3+'] };
  return [
    { shape: 'column start, lifted onto datasets', input: { orFilters: [{ and: [degree3] }] } },
    // scrollAcrossLineage always lifts, as DataHub's does (searchAcrossLineage's groupingSpec can
    // keep columns): domain only.
    {
      shape: 'column start, columns kept (types SCHEMA_FIELD)',
      input: { orFilters: [{ and: [degree3] }], types: ['SCHEMA_FIELD'], liftFields: false },
      domainOnly: true,
    },
  ];
}
