// ML aspects. Lineage fields per docs/lineage-model.md §Derivation; only mlPrimaryKeyProperties.sources is
// restricted to one urn kind (dataset). The other urn lists accept any urn: a destination type
// the relationship table does not list simply yields no edge.
import { z } from 'zod';
import { stringMapSchema, urnOf, urnSchema } from './common.ts';

const common = {
  customProperties: stringMapSchema.optional(),
  description: z.string().optional(),
};

export const mlPrimaryKeyPropertiesSchema = z.looseObject({
  ...common,
  sources: z.array(urnOf('dataset')),
});

export const mlFeaturePropertiesSchema = z.looseObject({
  ...common,
  sources: z.array(urnSchema).optional(),
});

// What a model group has, a model has too (DataHub's two records share these fields).
export const mlModelGroupPropertiesSchema = z.looseObject({
  ...common,
  name: z.string().optional(),
  trainingJobs: z.array(urnSchema).optional(),
  downstreamJobs: z.array(urnSchema).optional(),
});

export const mlModelPropertiesSchema = mlModelGroupPropertiesSchema.extend({
  mlFeatures: z.array(urnSchema).optional(),
  groups: z.array(urnSchema).optional(),
  deployments: z.array(urnSchema).optional(),
});

export const mlFeatureTablePropertiesSchema = z.looseObject({
  ...common,
  mlFeatures: z.array(urnSchema).optional(),
  mlPrimaryKeys: z.array(urnSchema).optional(),
});
