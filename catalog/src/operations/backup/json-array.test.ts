import { readJsonArray, type RawRecord } from './json-array.ts';

async function* chunked(text: string, size: number): AsyncGenerator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}
async function* bytes(text: string, size: number): AsyncGenerator<Buffer> {
  const b = Buffer.from(text, 'utf8');
  for (let i = 0; i < b.length; i += size) yield b.subarray(i, i + size);
}
async function all(source: AsyncIterable<string | Buffer>, skip = 0): Promise<RawRecord[]> {
  const out: RawRecord[] = [];
  for await (const r of readJsonArray(source, { skip })) out.push(r);
  return out;
}

const records = [
  { a: 1, s: 'brackets ] } [ { and "quotes" and \\ backslashes' },
  { nested: { list: [1, [2, { x: '}' }]], empty: {} } },
  { u: 'ünïcødé ✓ 𝄞', esc: '\\"' },
];
const text = ` \n[\n${records.map((r) => JSON.stringify(r, null, 2)).join(' ,\n')}\n]\n`;

test.each([1, 2, 3, 7, 64, 100_000])('records split across chunks of %i characters or bytes come out whole', async (size) => {
  expect((await all(chunked(text, size))).map((r) => r.value)).toEqual(records);
  expect((await all(bytes(text, size))).map((r) => r.value)).toEqual(records);
});

test('indexes and offsets name each record; skip scans without parsing', async () => {
  const got = await all(chunked(text, 5));
  expect(got.map((r) => r.index)).toEqual([0, 1, 2]);
  for (const r of got) expect(text[r.offset]).toBe('{');
  expect((await all(chunked(text, 5), 2)).map((r) => r.index)).toEqual([2]);
  expect(await all(chunked('[]', 1))).toEqual([]);
});

test.each([
  ['', /before the opening \[/],
  ['[{"a":1},', /truncated: it ends after record 0/],
  ['[{"a":1},{"b":"x', /truncated: it ends inside record 1 \(which starts at character 9\)/],
  ['[{"a":1} {"b":2}]', /after record 0 at character 9: expected ',' or '\]'/],
  ['[{"a":1},]', /record 1 at character 9: expected an object, found '\]'/],
  ['[{"a":1}] x', /unexpected content after the closing '\]'/],
  ['[{"a":tru}]', /record 0 \(character 1\) is not valid JSON/],
  ['{"a":1}', /not a JSON array of records: expected '\[' at character 0/],
])('%j is refused naming where', async (input, message) => {
  await expect(all(chunked(input, 3))).rejects.toMatchObject({ kind: 'badRequest', message: expect.stringMatching(message) });
});

test('a record above the size cap is refused without holding it', async () => {
  const big = `[{"x":"${'a'.repeat(5000)}"}]`;
  const reader = readJsonArray(chunked(big, 100), { maxRecordChars: 1000 });
  await expect(reader.next()).rejects.toMatchObject({
    message: expect.stringMatching(/^record 0 \(character 1\) is larger than 1000 characters/),
  });
});
