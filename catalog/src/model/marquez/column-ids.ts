// The node ids of Marquez's column lineage (docs/marquez-compatibility.md §Column lineage):
// `dataset:<ns>:<name>`, `datasetField:<ns>:<name>:<field>`, `job:<ns>:<name>`, each with an
// optional `#<version>`. Parts end at a colon that does not start `://` or a port, as Marquez's
// NodeId splits them. Pure.
import { badRequest } from '../errors.ts';
import type { MarquezId } from './ids.ts';

export type ColumnNodeId =
  | { type: 'DATASET' | 'JOB'; id: MarquezId; version: string | null }
  | { type: 'DATASET_FIELD'; id: MarquezId; field: string; version: string | null };

const PREFIXES = { dataset: 'DATASET', datasetField: 'DATASET_FIELD', job: 'JOB' } as const;

/** `text` cut at its first `parts - 1` separating colons; undefined when it has fewer or an empty part. */
function splitParts(text: string, parts: number): string[] | undefined {
  const out: string[] = [];
  let rest = text;
  for (let i = 0; i < parts - 1; i++) {
    const colon = /:(?!\/\/|\d)/.exec(rest);
    if (!colon || colon.index === 0) return undefined;
    out.push(rest.slice(0, colon.index));
    rest = rest.slice(colon.index + 1);
  }
  if (rest === '') return undefined;
  return [...out, rest];
}

export function parseColumnNodeId(value: string | undefined): ColumnNodeId {
  const shape = 'dataset:<namespace>:<name>, datasetField:<namespace>:<name>:<field> or job:<namespace>:<name>';
  if (value === undefined || value === '') throw badRequest(`nodeId is required: ${shape}`);
  const m = /^(dataset|datasetField|job):(.*)$/.exec(value);
  if (!m) throw badRequest(`nodeId must be ${shape}, got '${value}'`);
  const type = PREFIXES[m[1] as keyof typeof PREFIXES];
  const hash = m[2]!.lastIndexOf('#');
  const body = hash >= 0 ? m[2]!.slice(0, hash) : m[2]!;
  const version = hash >= 0 ? m[2]!.slice(hash + 1) : null;
  if (version === '') throw badRequest(`nodeId's version after '#' is empty, got '${value}'`);
  const parts = splitParts(body, type === 'DATASET_FIELD' ? 3 : 2);
  if (!parts) throw badRequest(`nodeId must be ${shape}, got '${value}'`);
  const id = { namespace: parts[0]!, name: parts[1]! };
  return type === 'DATASET_FIELD' ? { type, id, field: parts[2]!, version } : { type, id, version };
}

export const fieldNodeIdOf = (id: MarquezId, field: string) => `datasetField:${id.namespace}:${id.name}:${field}`;
