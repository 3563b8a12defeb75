import {
  formatBookmarkHeader,
  MAX_BOOKMARK_HEADER_CHARS,
  MAX_PRESENTED_BOOKMARKS,
  mergeBookmarkHeaders,
  parseBookmarkHeader,
} from './bookmarks.ts';

// The shape of a Neo4j 5 bookmark: base64 with '+', '/' and '=', which is why items are base64url.
const BOOKMARK = 'FB:kcwQkaiEU0QBQRKhSrS4LDmr9Mke5ZA=';
const OTHER = 'FB:kcwQkaiEU0QBQRKhSrS4LDmr9Mke5+/=';

describe('X-Lineage-Bookmark', () => {
  test('what a write answers parses back to the same bookmarks', () => {
    const header = formatBookmarkHeader([BOOKMARK, OTHER]);
    expect(header).toMatch(/^[A-Za-z0-9_-]+,[A-Za-z0-9_-]+$/);
    expect(parseBookmarkHeader(header)).toEqual({ bookmarks: [BOOKMARK, OTHER] });
  });

  test('absent or empty: no bookmarks; joined lists, repeated headers and stray commas are accepted', () => {
    expect(parseBookmarkHeader(undefined)).toEqual({ bookmarks: [] });
    expect(parseBookmarkHeader('  ')).toEqual({ bookmarks: [] });
    const a = formatBookmarkHeader([BOOKMARK]);
    const b = formatBookmarkHeader([OTHER]);
    expect(parseBookmarkHeader(`${a}, ${b},`)).toEqual({ bookmarks: [BOOKMARK, OTHER] });
    expect(parseBookmarkHeader([a, b])).toEqual({ bookmarks: [BOOKMARK, OTHER] });
  });

  test.each([
    ['a raw bookmark (not base64url)', BOOKMARK],
    ['a character outside base64url', 'abc$def'],
    ['an item too short to hold a byte', 'a'],
    ['bytes that are not printable', Buffer.from([0x00, 0x9f, 0x10]).toString('base64url')],
  ])('malformed: %s → a problem naming the header', (_, value) => {
    const r = parseBookmarkHeader(value);
    expect(r).toEqual({ problem: expect.stringMatching(/^x-lineage-bookmark is malformed: '.+' is not a bookmark/) });
  });

  test('too many bookmarks or too long a header → a problem naming the limit', () => {
    const many = Array.from({ length: MAX_PRESENTED_BOOKMARKS + 1 }, () => formatBookmarkHeader([BOOKMARK])).join(',');
    expect(parseBookmarkHeader(many)).toEqual({ problem: expect.stringContaining(`at most ${MAX_PRESENTED_BOOKMARKS}`) });
    expect(parseBookmarkHeader('A'.repeat(MAX_BOOKMARK_HEADER_CHARS + 1))).toEqual({
      problem: expect.stringContaining(`longer than ${MAX_BOOKMARK_HEADER_CHARS}`),
    });
  });

  test('merging header values keeps each item once, in order; nothing to merge → undefined', () => {
    expect(mergeBookmarkHeaders(['a,b', null, 'b, c', undefined, ''])).toBe('a,b,c');
    expect(mergeBookmarkHeaders([null, undefined, ' '])).toBeUndefined();
  });
});
