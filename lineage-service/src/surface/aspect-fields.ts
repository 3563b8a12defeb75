// The GraphQL fields entity types take from stored aspects, one entry each: the field's declaration,
// the GraphQL types that carry it (as DataHub's schema has them), the aspect it reads and how the
// stored value renders. entity-sdl.ts writes every entity type's declaration of these fields from
// this table, and resolvers/entities.ts wires the same entries, so a field is declared and resolved
// in one place. An entity without the aspect answers `absent` (null unless said), never an error.
//
// Adding an aspect's GraphQL fields = one entry here (+ its value type in schema/*.graphql when new).
import type { JsonRecord } from '@lineage/catalog/model';
import type { RequestContext } from '../context.ts';
import { storedRef, type EntityRef } from '../entity-ref.ts';
import { aspectOf, auditStamp, num, ownershipOf, propertyValue, record, records, refsOf, str, strings, tagsOf, termsOf } from './values.ts';

export interface AspectField {
  readonly name: string;
  /** The field's GraphQL type (and arguments), per carrying type when it differs. */
  readonly type: string | ((typename: string) => string);
  readonly doc?: string;
  /** The GraphQL object types that declare it. */
  readonly on: readonly string[];
  /** The aspect it reads, per carrying type when it differs; none = computed from `render` alone. */
  readonly aspect?: string | ((typename: string) => string);
  readonly render: (value: JsonRecord, ref: EntityRef, ctx: RequestContext) => unknown;
  /** What an entity without the aspect answers (null when not given). */
  readonly absent?: () => unknown;
}

// Which GraphQL types carry what, in DataHub's schema.
const ML = ['MLFeature', 'MLPrimaryKey', 'MLFeatureTable', 'MLModel', 'MLModelGroup'];
const PIPELINES_AND_BI = ['DataJob', 'DataFlow', 'Chart', 'Dashboard'];
const DATA_ASSETS = ['Dataset', ...PIPELINES_AND_BI, ...ML];
const CONTAINED = [...DATA_ASSETS, 'Container'];
const GOVERNED = [...CONTAINED, 'DataProduct', 'Document'];
const OWNABLE = [...GOVERNED, 'CorpGroup', 'Domain', 'GlossaryTerm', 'GlossaryNode', 'Tag', 'BusinessAttribute', 'Application'];
const WITH_PROPERTIES = [
  ...GOVERNED,
  'CorpUser',
  'CorpGroup',
  'Domain',
  'GlossaryTerm',
  'GlossaryNode',
  'SchemaFieldEntity',
  'Application',
];

/** The aspect behind `editableProperties` of each type, and the GraphQL type it renders as. */
const EDITABLE: Readonly<Record<string, readonly [aspect: string, type: string]>> = {
  Dataset: ['editableDatasetProperties', 'DatasetEditableProperties'],
  Chart: ['editableChartProperties', 'ChartEditableProperties'],
  Dashboard: ['editableDashboardProperties', 'DashboardEditableProperties'],
  DataJob: ['editableDataJobProperties', 'DataJobEditableProperties'],
  DataFlow: ['editableDataFlowProperties', 'DataFlowEditableProperties'],
  Container: ['editableContainerProperties', 'ContainerEditableProperties'],
  MLFeature: ['editableMlFeatureProperties', 'MLFeatureEditableProperties'],
  MLPrimaryKey: ['editableMlPrimaryKeyProperties', 'MLPrimaryKeyEditableProperties'],
  MLFeatureTable: ['editableMlFeatureTableProperties', 'MLFeatureTableEditableProperties'],
  MLModel: ['editableMlModelProperties', 'MLModelEditableProperties'],
  MLModelGroup: ['editableMlModelGroupProperties', 'MLModelGroupEditableProperties'],
  CorpUser: ['corpUserEditableInfo', 'CorpUserEditableProperties'],
  CorpGroup: ['corpGroupEditableInfo', 'CorpGroupEditableProperties'],
};
const editable = (typename: string) => EDITABLE[typename]!;

/** A urn of a schemaField of this dataset. */
const schemaFieldUrn = (datasetUrn: string, fieldPath: string) => `urn:li:schemaField:(${datasetUrn},${fieldPath})`;

export const ASPECT_FIELDS: readonly AspectField[] = [
  {
    name: 'status',
    type: 'Status',
    on: [...OWNABLE, 'CorpUser', 'SchemaFieldEntity', 'DataProcessInstance', 'OwnershipTypeEntity'],
    aspect: 'status',
    render: (v) => ({ removed: v.removed === true }),
  },
  {
    name: 'tags',
    type: 'GlobalTags',
    on: [...GOVERNED, 'SchemaFieldEntity', 'BusinessAttribute', 'Incident'],
    aspect: 'globalTags',
    render: (v, ref) => tagsOf(v, ref.urn.text),
  },
  {
    name: 'glossaryTerms',
    type: 'GlossaryTerms',
    on: [...GOVERNED, 'SchemaFieldEntity', 'BusinessAttribute'],
    aspect: 'glossaryTerms',
    render: (v, ref) => termsOf(v, ref.urn.text),
  },
  { name: 'ownership', type: 'Ownership', on: OWNABLE, aspect: 'ownership', render: (v, ref) => ownershipOf(v, ref.urn.text) },
  {
    name: 'domain',
    type: 'DomainAssociation',
    doc: 'The first domain of the domains aspect.',
    on: GOVERNED,
    aspect: 'domains',
    render: (v, ref) => {
      const domain = refsOf(v.domains, 'domain')[0];
      return domain ? { domain, associatedUrn: ref.urn.text } : null;
    },
  },
  {
    name: 'container',
    type: 'Container',
    on: CONTAINED,
    aspect: 'container',
    render: (v) => refsOf([v.container], 'container')[0] ?? null,
  },
  {
    name: 'dataPlatformInstance',
    type: 'DataPlatformInstance',
    on: [...CONTAINED, 'Document'],
    aspect: 'dataPlatformInstance',
    render: (v) => storedRef(str(v.instance)),
  },
  {
    name: 'deprecation',
    type: 'Deprecation',
    on: [...CONTAINED, 'GlossaryTerm', 'SchemaFieldEntity'],
    aspect: 'deprecation',
    render: (v) => ({
      deprecated: v.deprecated === true,
      note: str(v.note),
      decommissionTime: num(v.decommissionTime),
      actor: str(v.actor),
      actorEntity: storedRef(str(v.actor)),
    }),
  },
  {
    name: 'subTypes',
    type: 'SubTypes',
    on: [...CONTAINED, 'Document'],
    aspect: 'subTypes',
    render: (v) => ({ typeNames: strings(v.typeNames) }),
  },
  {
    name: 'editableProperties',
    type: (t) => editable(t)[1],
    on: Object.keys(EDITABLE),
    aspect: (t) => editable(t)[0],
    render: (v) => ({ ...v, description: str(v.description) }),
  },
  {
    name: 'structuredProperties',
    type: 'StructuredProperties',
    on: WITH_PROPERTIES,
    aspect: 'structuredProperties',
    render: (v, ref) => ({
      properties: records(v.properties).flatMap((p) => {
        const structuredProperty = refsOf([p.propertyUrn], 'structuredProperty')[0];
        if (!structuredProperty) return [];
        const values = records(p.values).map(propertyValue);
        const valueEntities = records(p.values).map((x) => storedRef(str(x.string)));
        return [{ structuredProperty, values, valueEntities, associatedUrn: ref.urn.text }];
      }),
    }),
  },
  {
    name: 'browsePathV2',
    type: 'BrowsePathV2',
    on: CONTAINED,
    aspect: 'browsePathsV2',
    render: (v) => ({ path: records(v.path).map((e) => ({ name: str(e.id) ?? '', entity: storedRef(str(e.urn)) })) }),
  },
  {
    name: 'institutionalMemory',
    type: 'InstitutionalMemory',
    on: GOVERNED,
    aspect: 'institutionalMemory',
    render: (v, ref) => ({
      elements: records(v.elements).map((e) => ({
        url: str(e.url) ?? '',
        label: str(e.description) ?? '',
        description: str(e.description) ?? '',
        associatedUrn: ref.urn.text,
        created: auditStamp(e.createStamp),
        author: refsOf([record(e.createStamp)?.actor], 'corpuser')[0] ?? null,
      })),
    }),
  },
  {
    name: 'documentation',
    type: 'Documentation',
    on: [...CONTAINED, 'SchemaFieldEntity'],
    aspect: 'documentation',
    render: (v) => ({
      documentations: records(v.documentations).map((d) => ({
        documentation: str(d.documentation) ?? '',
        attribution: record(d.attribution)
          ? {
              sourceDetail: Object.entries(record(record(d.attribution)!.sourceDetail) ?? {}).map(([key, value]) => ({
                key,
                value: str(value),
              })),
            }
          : null,
      })),
    }),
  },
  {
    name: 'health',
    type: '[Health!]',
    doc: 'Computed from assertions and incidents in DataHub; none are evaluated here, so always empty.',
    on: [...PIPELINES_AND_BI, 'Dataset'],
    render: () => [],
    absent: () => [],
  },
  {
    name: 'statsSummary',
    type: (t) => (t === 'Dataset' ? 'DatasetStatsSummary' : `${t}StatsSummary`),
    doc: 'Usage statistics; this catalog keeps none, so always null.',
    on: ['Dataset', 'Chart', 'Dashboard'],
    render: () => null,
  },
  // Datasets
  {
    name: 'editableSchemaMetadata',
    type: 'EditableSchemaMetadata',
    on: ['Dataset'],
    aspect: 'editableSchemaMetadata',
    render: (v, ref) => ({
      editableSchemaFieldInfo: records(v.editableSchemaFieldInfo).map((f) => ({
        fieldPath: str(f.fieldPath) ?? '',
        description: str(f.description),
        tags: tagsOf(f.globalTags, ref.urn.text),
        glossaryTerms: termsOf(f.glossaryTerms, ref.urn.text),
      })),
    }),
  },
  {
    name: 'viewProperties',
    type: 'ViewProperties',
    on: ['Dataset'],
    aspect: 'viewProperties',
    render: (v) => ({
      materialized: v.materialized === true,
      logic: str(v.viewLogic) ?? '',
      formattedLogic: str(v.formattedViewLogic),
      language: str(v.viewLanguage) ?? '',
    }),
  },
  // Pipelines
  {
    name: 'inputOutput',
    type: 'DataJobInputOutput',
    on: ['DataJob'],
    aspect: 'dataJobInputOutput',
    render: (v) => {
      const ends = (list: unknown, edges: unknown, ...types: string[]) =>
        dedupe([
          ...refsOf(list, ...types),
          ...refsOf(
            records(edges).map((e) => e.destinationUrn),
            ...types,
          ),
        ]);
      return {
        inputDatasets: ends(v.inputDatasets, v.inputDatasetEdges, 'dataset'),
        outputDatasets: ends(v.outputDatasets, v.outputDatasetEdges, 'dataset'),
        inputDatajobs: ends(v.inputDatajobs, v.inputDatajobEdges, 'dataJob'),
        fineGrainedLineages: null,
      };
    },
  },
  // Schema fields
  {
    name: 'businessAttributes',
    type: 'BusinessAttributes',
    on: ['SchemaFieldEntity'],
    aspect: 'businessAttributes',
    render: (v, ref) => {
      const attribute = refsOf([record(v.businessAttribute)?.businessAttributeUrn], 'businessAttribute')[0];
      return { businessAttribute: attribute ? { businessAttribute: attribute, associatedUrn: ref.urn.text } : null };
    },
  },
];

function dedupe(refs: EntityRef[]): EntityRef[] {
  const seen = new Set<string>();
  return refs.filter((r) => !seen.has(r.urn.text) && seen.add(r.urn.text));
}

/** The schemaField entity of a column of a dataset (DataHub's SchemaField.schemaFieldEntity). */
export function schemaFieldEntityOf(datasetUrn: string, fieldPath: string): EntityRef | null {
  return storedRef(schemaFieldUrn(datasetUrn, fieldPath));
}

/** Resolvers of the entries a GraphQL type declares. */
export function aspectFieldResolvers(
  typename: string,
): Record<string, (ref: EntityRef, args: unknown, ctx: RequestContext) => Promise<unknown>> {
  return Object.fromEntries(
    ASPECT_FIELDS.filter((f) => f.on.includes(typename)).map((f) => {
      const aspect = typeof f.aspect === 'function' ? f.aspect(typename) : f.aspect;
      const absent = f.absent ?? (() => null);
      return [
        f.name,
        async (ref: EntityRef, _: unknown, ctx: RequestContext) => {
          if (aspect === undefined) return f.render({}, ref, ctx);
          const value = await aspectOf(ctx, ref, aspect);
          return value ? f.render(value, ref, ctx) : absent();
        },
      ];
    }),
  );
}
