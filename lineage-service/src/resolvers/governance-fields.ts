// Fields particular to the entities that describe others (schema/governance.graphql, quality.graphql,
// documents.graphql): people, tags, glossaries, domains, data products, structured properties,
// assertions, incidents and documents, read from their stored aspects.
import { entityTypeToGraphql, type JsonRecord } from '@lineage/catalog/model';
import type { RequestContext } from '../context.ts';
import { storedRef, type EntityRef } from '../entity-ref.ts';
import type { DataProductEntitiesArgs, DomainEntitiesArgs } from '../generated/schema-types.ts';
import {
  aspectOf,
  auditStamp,
  bool,
  customProperties,
  num,
  oneOf,
  part,
  propertyValue,
  record,
  records,
  refsOf,
  resolvedStamp,
  str,
  strings,
} from '../surface/values.ts';
import { domainEntities, searchPageOfUrns } from './listing.ts';

type Field = (ref: EntityRef, args: never, ctx: RequestContext) => unknown;

/** A field rendered from one aspect, null when the entity has none. */
const fromAspect =
  (aspect: string, render: (v: JsonRecord, ref: EntityRef) => unknown): Field =>
  async (ref, _, ctx) => {
    const v = await aspectOf(ctx, ref, aspect);
    return v ? render(v, ref) : null;
  };

/** A name from an aspect field, else the urn's first key part. */
const nameFrom = (ref: EntityRef, v: JsonRecord | undefined, field = 'name') => str(v?.[field]) ?? part(ref, 0);

const userInfo = (v: JsonRecord, ref: EntityRef) => ({
  ...v,
  active: v.active !== false,
  customProperties: customProperties(ref, v.customProperties),
});

/** The chain of parents one aspect field names (a node's parentNode, a domain's parentDomain), nearest first. */
async function parentChain(
  ctx: RequestContext,
  first: EntityRef | undefined,
  aspect: string,
  field: string,
  type: string,
): Promise<EntityRef[]> {
  const chain: EntityRef[] = [];
  const seen = new Set<string>();
  for (let next = first; next && !seen.has(next.urn.text) && chain.length < 100;) {
    seen.add(next.urn.text);
    chain.push(next);
    next = refsOf([(await aspectOf(ctx, next, aspect))?.[field]], type)[0];
  }
  return chain;
}

const parentNodes =
  (aspect: string): Field =>
  async (ref, _, ctx) => {
    const nodes = await parentChain(
      ctx,
      refsOf([(await aspectOf(ctx, ref, aspect))?.parentNode], 'glossaryNode')[0],
      'glossaryNodeInfo',
      'parentNode',
      'glossaryNode',
    );
    return { count: nodes.length, nodes };
  };

const displayProperties = fromAspect('displayProperties', (v) => ({
  colorHex: str(v.colorHex),
  icon: record(v.icon)
    ? {
        name: str(record(v.icon)!.name),
        style: str(record(v.icon)!.style),
        iconLibrary: str(record(v.icon)!.iconLibrary) === 'MATERIAL' ? 'MATERIAL' : null,
      }
    : null,
}));

/** A platform named by dataPlatformInstance, else DataHub's own. */
const platformOrDataHub: Field = async (ref, _, ctx) =>
  storedRef(str((await aspectOf(ctx, ref, 'dataPlatformInstance'))?.platform)) ?? storedRef('urn:li:dataPlatform:datahub');

const ENTITY_TYPE_ID = /^datahub\.(.+)$/;

const INCIDENT_PRIORITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'];

/** An incident's value, with what DataHub answers when no incidentInfo is stored. */
const incident =
  (field: (v: JsonRecord, ref: EntityRef) => unknown): Field =>
  async (ref, _, ctx) =>
    field((await aspectOf(ctx, ref, 'incidentInfo')) ?? {}, ref);

export const GOVERNANCE_FIELDS: Readonly<Record<string, Record<string, unknown>>> = {
  CorpUser: {
    properties: fromAspect('corpUserInfo', userInfo),
    info: fromAspect('corpUserInfo', userInfo),
    editableInfo: fromAspect('corpUserEditableInfo', (v) => ({ ...v, teams: strings(v.teams), skills: strings(v.skills) })),
    settings: () => ({ views: { defaultView: null } }),
  },
  CorpGroup: {
    name: (ref: EntityRef) => part(ref, 0),
    properties: fromAspect('corpGroupInfo', (v) => ({
      displayName: str(v.displayName),
      email: str(v.email),
      description: str(v.description),
    })),
    info: fromAspect('corpGroupInfo', (v) => ({
      displayName: str(v.displayName),
      email: str(v.email),
      description: str(v.description),
      admins: refsOf(v.admins, 'corpuser'),
      members: refsOf(v.members, 'corpuser'),
      groups: strings(v.groups),
    })),
  },
  OwnershipTypeEntity: {
    info: fromAspect('ownershipTypeInfo', (v, ref) => ({
      name: nameFrom(ref, v),
      description: str(v.description),
      created: auditStamp(v.created),
      lastModified: auditStamp(v.lastModified),
    })),
  },
  Tag: {
    name: async (ref: EntityRef, _: unknown, ctx: RequestContext) => nameFrom(ref, await aspectOf(ctx, ref, 'tagProperties')),
    properties: fromAspect('tagProperties', (v, ref) => ({
      name: nameFrom(ref, v),
      description: str(v.description),
      colorHex: str(v.colorHex),
    })),
  },
  GlossaryTerm: {
    name: (ref: EntityRef) => part(ref, 0),
    hierarchicalName: (ref: EntityRef) => part(ref, 0),
    properties: fromAspect('glossaryTermInfo', (v, ref) => {
      const definition = str(v.definition) ?? '';
      return {
        name: nameFrom(ref, v),
        description: str(v.description) ?? definition,
        definition,
        termSource: str(v.termSource) ?? '',
        sourceRef: str(v.sourceRef),
        sourceUrl: str(v.sourceUrl),
        rawSchema: str(v.rawSchema),
        customProperties: customProperties(ref, v.customProperties),
      };
    }),
    parentNodes: parentNodes('glossaryTermInfo'),
  },
  GlossaryNode: {
    properties: fromAspect('glossaryNodeInfo', (v, ref) => ({
      name: nameFrom(ref, v),
      description: str(v.definition) ?? str(v.description),
      customProperties: customProperties(ref, v.customProperties),
    })),
    parentNodes: parentNodes('glossaryNodeInfo'),
    displayProperties,
  },
  Domain: {
    id: (ref: EntityRef) => part(ref, 0),
    properties: fromAspect('domainProperties', (v, ref) => ({ name: nameFrom(ref, v), description: str(v.description) })),
    parentDomains: async (ref: EntityRef, _: unknown, ctx: RequestContext) => {
      const domains = await parentChain(
        ctx,
        refsOf([(await aspectOf(ctx, ref, 'domainProperties'))?.parentDomain], 'domain')[0],
        'domainProperties',
        'parentDomain',
        'domain',
      );
      return { count: domains.length, domains };
    },
    displayProperties,
    entities: (ref: EntityRef, { input }: DomainEntitiesArgs, ctx: RequestContext) => domainEntities(ctx, ref, input ?? {}),
  },
  DataProduct: {
    properties: fromAspect('dataProductProperties', (v, ref) => ({
      name: nameFrom(ref, v),
      description: str(v.description),
      externalUrl: str(v.externalUrl),
      numAssets: records(v.assets).length,
      customProperties: customProperties(ref, v.customProperties),
    })),
    entities: async (ref: EntityRef, { input }: DataProductEntitiesArgs, ctx: RequestContext) => {
      const assets = records((await aspectOf(ctx, ref, 'dataProductProperties'))?.assets)
        .map((a) => str(a.destinationUrn))
        .filter((u): u is string => u !== null);
      return searchPageOfUrns(assets, input ?? {});
    },
  },
  Application: {
    properties: fromAspect('applicationProperties', (v, ref) => ({
      name: nameFrom(ref, v),
      description: str(v.description),
      externalUrl: str(v.externalUrl),
    })),
  },
  BusinessAttribute: {
    properties: fromAspect('businessAttributeInfo', (v, ref) => ({
      ...v,
      name: nameFrom(ref, v),
      description: str(v.description),
      type: null,
      created: auditStamp(v.created, true),
      lastModified: auditStamp(v.lastModified, true),
      customProperties: customProperties(ref, v.customProperties),
      tags: null,
      glossaryTerms: null,
    })),
  },
  StructuredPropertyEntity: {
    definition: async (ref: EntityRef, _: unknown, ctx: RequestContext) => {
      const v = (await aspectOf(ctx, ref, 'propertyDefinition')) ?? {};
      return {
        qualifiedName: str(v.qualifiedName) ?? part(ref, 0),
        displayName: str(v.displayName),
        description: str(v.description),
        cardinality: oneOf(v.cardinality, ['SINGLE', 'MULTIPLE']),
        immutable: v.immutable === true,
        valueType: storedRef(str(v.valueType) ?? 'urn:li:dataType:datahub.string'),
        entityTypes: refsOf(v.entityTypes, 'entityType'),
        typeQualifier: record(v.typeQualifier) ? { allowedTypes: refsOf(record(v.typeQualifier)!.allowedTypes, 'entityType') } : null,
        allowedValues: Array.isArray(v.allowedValues)
          ? records(v.allowedValues).flatMap((a) => {
              const value = propertyValue(a.value);
              return value ? [{ value, description: str(a.description) }] : [];
            })
          : null,
        created: resolvedStamp(v.created),
        lastModified: resolvedStamp(v.lastModified),
      };
    },
    settings: fromAspect('structuredPropertySettings', (v) => ({
      isHidden: v.isHidden === true,
      showInSearchFilters: v.showInSearchFilters === true,
      showAsAssetBadge: v.showAsAssetBadge === true,
      showInAssetSummary: v.showInAssetSummary === true,
      showInColumnsTable: v.showInColumnsTable === true,
    })),
  },
  DataTypeEntity: {
    info: async (ref: EntityRef, _: unknown, ctx: RequestContext) => {
      const v = await aspectOf(ctx, ref, 'dataTypeInfo');
      return { qualifiedName: str(v?.qualifiedName) ?? part(ref, 0), displayName: str(v?.displayName), description: str(v?.description) };
    },
  },
  EntityTypeEntity: {
    info: async (ref: EntityRef, _: unknown, ctx: RequestContext) => {
      const v = await aspectOf(ctx, ref, 'entityTypeInfo');
      const qualifiedName = str(v?.qualifiedName) ?? part(ref, 0);
      const name = ENTITY_TYPE_ID.exec(qualifiedName)?.[1];
      return {
        type: name ? entityTypeToGraphql(name) : 'OTHER',
        qualifiedName,
        displayName: str(v?.displayName),
        description: str(v?.description),
      };
    },
  },
  Assertion: {
    info: fromAspect('assertionInfo', (v, ref) => ({
      ...v,
      description: str(v.description),
      lastUpdated: auditStamp(v.lastUpdated),
      customProperties: customProperties(ref, v.customProperties),
      source: record(v.source) ? { type: str(record(v.source)!.type) ?? 'NATIVE', created: auditStamp(record(v.source)!.created) } : null,
    })),
    platform: platformOrDataHub,
    runEvents: () => ({ total: 0, failed: 0, succeeded: 0, errored: 0, runEvents: [] }),
  },
  Incident: {
    incidentType: incident((v) => oneOf(v.type, ['FRESHNESS', 'VOLUME', 'FIELD', 'SQL', 'DATA_SCHEMA', 'OPERATIONAL', 'CUSTOM'], 'CUSTOM')),
    customType: incident((v) => str(v.customType)),
    title: incident((v) => str(v.title)),
    description: incident((v) => str(v.description)),
    priority: incident((v) => {
      const p = num(v.priority);
      return p !== null ? (INCIDENT_PRIORITIES[p] ?? null) : null;
    }),
    startedAt: incident((v) => num(v.startedAt)),
    created: incident((v) => auditStamp(v.created, true)),
    incidentStatus: incident((v) => {
      const s = record(v.status) ?? {};
      return {
        state: oneOf(s.state, ['ACTIVE', 'RESOLVED'], 'ACTIVE'),
        stage: oneOf(s.stage, ['TRIAGE', 'INVESTIGATION', 'WORK_IN_PROGRESS', 'FIXED', 'NO_ACTION_REQUIRED']),
        message: str(s.message),
        lastUpdated: auditStamp(s.lastUpdated, true),
      };
    }),
    entity: incident((v, ref) => refsOf(v.entities)[0] ?? ref),
    assignees: incident((v) =>
      refsOf(
        records(v.assignees).map((a) => a.actor),
        'corpuser',
        'corpGroup',
      ),
    ),
    source: fromAspect('incidentSource', (v) => ({
      type: oneOf(v.type, ['MANUAL', 'ASSERTION_FAILURE'], 'MANUAL'),
      source: storedRef(str(v.sourceUrn)),
    })),
  },
  Document: {
    info: fromAspect('documentInfo', (v) => ({
      title: str(v.title),
      contents: { text: str(record(v.contents)?.text) ?? '' },
      source: record(v.source)
        ? {
            sourceType: oneOf(record(v.source)!.sourceType, ['NATIVE', 'EXTERNAL'], 'NATIVE'),
            externalUrl: str(record(v.source)!.externalUrl),
          }
        : null,
      created: resolvedStamp(v.created) ?? { time: 0, actor: null },
      lastModified: resolvedStamp(v.lastModified) ?? { time: 0, actor: null },
      relatedAssets: records(v.relatedAssets).flatMap((a) => {
        const asset = storedRef(str(a.asset));
        return asset ? [{ asset }] : [];
      }),
      relatedDocuments: records(v.relatedDocuments).flatMap((d) => refsOf([d.document], 'document').map((document) => ({ document }))),
      parentDocument: refsOf([record(v.parentDocument)?.document], 'document').map((document) => ({ document }))[0] ?? null,
      customProperties: null,
    })),
    subType: async (ref: EntityRef, _: unknown, ctx: RequestContext) =>
      strings((await aspectOf(ctx, ref, 'subTypes'))?.typeNames)[0] ?? null,
    platform: platformOrDataHub,
    settings: fromAspect('documentSettings', (v) => ({ showInGlobalContext: bool(v.showInGlobalContext) ?? true })),
  },
};
