// The impact export: every row of an ImpactQuery (all pages, the filters applied) as one CSV file.
// Pages of EXPORT_PAGE_SIZE are fetched one after another and each is turned into CSV text at once,
// so memory holds text rather than result objects; the awaits between pages hand the main thread
// back to the page, so a 100,000-row export leaves it responsive and can be cancelled part-way.
import { csvHeaderOf, csvRecordOf, exportFileName } from './impact-rows.ts';
import { fetchExportPage } from './impact-source.ts';
import type { ImpactCursor } from './impact-rows.ts';
import type { ImpactQuery } from './state.ts';

/** Rows per request: few requests for a big reach, each still a small reply (~1 MB of JSON). */
const EXPORT_PAGE_SIZE = 2_000;

export interface ExportedFile {
  blob: Blob;
  fileName: string;
  rows: number;
  total: number;
  /** The catalog cut a walk short somewhere: the file holds what it returned. */
  partial: boolean;
}

/**
 * Fetches and writes every page; null when `signal` was aborted. api.ts's graphql() takes no signal,
 * so a request already sent runs to its end and its reply is dropped: cancelling stops within a page.
 */
export async function exportImpactCsv(
  q: ImpactQuery,
  pageAddress: string,
  options: { signal: AbortSignal; onProgress(rows: number, total: number): void },
): Promise<ExportedFile | null> {
  const chunks: string[] = [csvHeaderOf(q.mode)];
  let cursor: ImpactCursor | null = null;
  let rows = 0;
  let total = 0;
  let partial = false;
  do {
    const page = await fetchExportPage(q, cursor, EXPORT_PAGE_SIZE, rows);
    if (options.signal.aborted) return null;
    let text = '';
    for (const row of page.rows) text += csvRecordOf(row, q.mode, pageAddress);
    chunks.push(text);
    rows += page.rows.length;
    total = page.total;
    partial ||= page.partial;
    cursor = page.next;
    options.onProgress(rows, total);
  } while (cursor !== null);
  return {
    blob: new Blob(chunks, { type: 'text/csv;charset=utf-8' }),
    fileName: exportFileName(q.label, q.direction),
    rows,
    total,
    partial,
  };
}

/** Hands the file to the browser's downloads through a temporary `<a download>`. */
export function downloadFile(file: ExportedFile): void {
  const url = URL.createObjectURL(file.blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = file.fileName;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  // Not revoked at once: the browser may still be reading the blob after the click returns.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
