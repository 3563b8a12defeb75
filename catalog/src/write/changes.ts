// What a write request is made of, whichever door it came through: changes, their types, the
// writer's options and result.
import { validationFailed } from '../model/errors.ts';
import type { Urn } from '../model/urn.ts';

/** The change types the writer applies: DataHub's ChangeType but UPDATE, which DataHub rejects too. */
const CHANGE_TYPES = ['UPSERT', 'CREATE', 'CREATE_ENTITY', 'DELETE', 'PATCH', 'RESTATE'] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];

/** A change type as a request names it; 422 naming `where` for UPDATE and unknown values. */
export function changeTypeOf(text: unknown, where: string): ChangeType {
  if (text === 'UPDATE') throw validationFailed('UPDATE change type not supported');
  if (!(CHANGE_TYPES as readonly unknown[]).includes(text))
    throw validationFailed(`Invalid ${where}: unsupported changeType '${String(text)}'`);
  return text as ChangeType;
}

export type SystemMetadata = Record<string, unknown> & { lastObserved: number; runId: string; lastRunId: string };

export interface AspectChange {
  urn: Urn;
  aspectName: string;
  changeType: ChangeType;
  /** The aspect JSON (UPSERT, CREATE, CREATE_ENTITY). */
  value?: unknown;
  /** The JSON text of a PATCH (RFC 6902 array or DataHub's wrapper). */
  patchText?: string;
  systemMetadata?: Record<string, unknown> | undefined;
  /** Where the request holds it (`proposals[3]`, `entities[0]`, `events[2]`), for errors naming the record. */
  source?: string | undefined;
  /**
   * DataHub's conditional write (its ConditionalWriteValidator, docs/wire-contract.md §OpenAPI):
   * `versionMatch` must equal the aspect's current version ("-1" when it has none), `noneMatch`
   * ("*") that the aspect does not exist; otherwise the request fails with 412 and writes nothing.
   */
  precondition?: { versionMatch?: string | undefined; noneMatch?: boolean | undefined } | undefined;
}

export type ExistenceMode = 'strict' | 'relaxed';

export interface WriteOptions {
  actor: string;
  existenceMode: ExistenceMode;
  /** Appended to the existence rule's 422: how this client may choose the other mode (the door knows how). */
  existenceHint?: string | undefined;
  now?: number;
  metadata?: Record<string, string>;
  /**
   * LINEAGE_STAMP_GRANULARITY_MS: a value differing from the stored one only in lineage stamps,
   * each by less than this, is not written (model/lineage-stamps.ts). Unset or 0: every change is.
   */
  stampGranularityMs?: number | undefined;
}

export interface WriteResult {
  /** Aspect rows written (new versions or new aspects). */
  rowsWritten: number;
  /** Aspect rows removed by DELETE / hard delete (all versions). */
  rowsDeleted: number;
}
