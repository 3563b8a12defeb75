// A streaming reader of one JSON array of objects — DataHub's file format (docs/operations.md
// §File format) — that holds one record at a time, whatever the file's size. It only finds where
// each top-level element starts and ends (strings, escapes and nesting tracked character by
// character); JSON.parse then reads one element. Every problem names the record (0-based index,
// as DataHub's file source counts) and the character offset where it starts.
import { badRequest } from '../../model/errors.ts';

export interface RawRecord {
  /** Position in the array, from 0. */
  index: number;
  /** Character offset of the record's `{` in the (decompressed) text. */
  offset: number;
  value: Record<string, unknown>;
}

export interface ReadOptions {
  /** A larger element is refused (a corrupt file must not take the memory of the machine). */
  maxRecordChars?: number;
  /** Elements before this index are only scanned, not parsed (resume after a checkpoint). */
  skip?: number;
}

const DEFAULT_MAX_RECORD_CHARS = 64 * 1024 * 1024;

type State = 'start' | 'first' | 'next' | 'element' | 'after' | 'done';

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0xfeff;

/** The records of a JSON array read from text chunks (a file stream with setEncoding, or gunzip). */
export async function* readJsonArray(chunks: AsyncIterable<string | Buffer>, options: ReadOptions = {}): AsyncGenerator<RawRecord> {
  const max = options.maxRecordChars ?? DEFAULT_MAX_RECORD_CHARS;
  const skip = options.skip ?? 0;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let state: State = 'start';
  let depth = 0;
  let inString = false;
  let escape = false;
  let parts: string[] = [];
  let length = 0;
  let index = 0;
  let recordOffset = 0;
  let position = 0; // characters before the current chunk
  const fail = (message: string): never => {
    throw badRequest(message);
  };
  const where = (i: number) => `at character ${position + i}`;

  for await (const raw of chunks) {
    let chunk: string;
    try {
      chunk = typeof raw === 'string' ? raw : decoder.decode(raw, { stream: true });
    } catch {
      fail(`record ${index}: the file is not UTF-8 text (near character ${position})`);
    }
    let start = state === 'element' ? 0 : -1;
    for (let i = 0; i < chunk!.length; i++) {
      const c = chunk!.charCodeAt(i);
      if (state === 'element') {
        if (inString) {
          if (escape) escape = false;
          else if (c === 0x5c) escape = true;
          else if (c === 0x22) inString = false;
          continue;
        }
        if (c === 0x22) inString = true;
        else if (c === 0x7b || c === 0x5b) depth++;
        else if (c === 0x7d || c === 0x5d) {
          if (--depth === 0) {
            const piece = chunk!.slice(start, i + 1);
            const text = parts.length ? parts.join('') + piece : piece;
            parts = [];
            length = 0;
            state = 'after';
            start = -1;
            if (index >= skip) {
              let value: unknown;
              try {
                value = JSON.parse(text);
              } catch (e) {
                fail(`record ${index} (character ${recordOffset}) is not valid JSON: ${(e as Error).message}`);
              }
              yield { index, offset: recordOffset, value: value as Record<string, unknown> };
            }
            index++;
          }
        }
        continue;
      }
      if (isSpace(c)) continue;
      switch (state) {
        case 'start':
          if (c !== 0x5b) fail(`not a JSON array of records: expected '[' ${where(i)}, found '${String.fromCharCode(c)}'`);
          state = 'first';
          break;
        case 'first':
        case 'next':
          if (c === 0x5d && state === 'first') {
            state = 'done';
            break;
          }
          if (c !== 0x7b) fail(`record ${index} ${where(i)}: expected an object, found '${String.fromCharCode(c)}'`);
          state = 'element';
          depth = 1;
          inString = false;
          escape = false;
          start = i;
          recordOffset = position + i;
          break;
        case 'after':
          if (c === 0x2c) state = 'next';
          else if (c === 0x5d) state = 'done';
          else fail(`after record ${index - 1} ${where(i)}: expected ',' or ']', found '${String.fromCharCode(c)}'`);
          break;
        case 'done':
          fail(`unexpected content after the closing ']' ${where(i)}`);
      }
    }
    if (state === 'element') {
      const piece = chunk!.slice(start);
      length += piece.length;
      if (length > max) fail(`record ${index} (character ${recordOffset}) is larger than ${max} characters: not a record of this format`);
      // Records being skipped are only scanned: nothing to keep of them.
      if (index >= skip) parts.push(piece);
    }
    position += chunk!.length;
  }
  if ((state as State) !== 'done') {
    const at =
      (state as State) === 'element'
        ? `inside record ${index} (which starts at character ${recordOffset})`
        : (state as State) === 'start'
          ? 'before the opening ['
          : `after record ${index - 1}`;
    fail(`the file is truncated: it ends ${at} without the closing ']' (${index} complete records read)`);
  }
}
