// The X-Lineage-Bookmark header (docs/wire-contract.md §Read-your-writes): how bookmarks travel over
// HTTP. A value is a comma-separated list of items, each one Neo4j bookmark in base64url (no
// padding). Items keep the header free of whatever characters a bookmark may hold, and a list lets
// a client present the bookmarks of several writes at once by joining them with commas — which is
// also what HTTP does with a repeated header (Node joins them with ", ").
import { BOOKMARK_HEADER } from '@lineage/catalog/runtime';

export { BOOKMARK_HEADER };

/** The most bookmarks one request may present; a client needs only its latest write's. */
export const MAX_PRESENTED_BOOKMARKS = 16;
/** The longest header accepted (a Neo4j 5 bookmark is ~35 characters, ~48 as an item). */
export const MAX_BOOKMARK_HEADER_CHARS = 4096;

const ITEM = /^[A-Za-z0-9_-]+$/;
// What Neo4j's bookmarks are made of (printable ASCII); anything else cannot be one of them.
const PRINTABLE = /^[\x21-\x7e]+$/;

export type PresentedBookmarks = { bookmarks: string[] } | { problem: string };

/**
 * The bookmarks a request presents: none when the header is absent or empty, else every item
 * decoded, or the problem that makes the header malformed (the caller answers 400 with it).
 */
export function parseBookmarkHeader(header: string | readonly string[] | undefined): PresentedBookmarks {
  const value = typeof header === 'string' ? header : header?.join(',');
  if (value === undefined || value.trim() === '') return { bookmarks: [] };
  if (value.length > MAX_BOOKMARK_HEADER_CHARS) {
    return {
      problem: `${BOOKMARK_HEADER} is longer than ${MAX_BOOKMARK_HEADER_CHARS} characters: present only the bookmark of your latest write.`,
    };
  }
  // Empty items (a trailing comma from joining lists) say nothing: skipped.
  const items = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (items.length > MAX_PRESENTED_BOOKMARKS) {
    return {
      problem: `${BOOKMARK_HEADER} holds ${items.length} bookmarks; at most ${MAX_PRESENTED_BOOKMARKS} are accepted: present only the bookmark of your latest write.`,
    };
  }
  const bookmarks: string[] = [];
  for (const item of items) {
    const decoded = ITEM.test(item) ? Buffer.from(item, 'base64url').toString('latin1') : '';
    if (!PRINTABLE.test(decoded)) {
      return {
        problem: `${BOOKMARK_HEADER} is malformed: '${item.length > 64 ? `${item.slice(0, 64)}…` : item}' is not a bookmark (expected comma-separated base64url items, as a write answered them).`,
      };
    }
    bookmarks.push(decoded);
  }
  return { bookmarks };
}

/** The header value for bookmarks (what a write answers). */
export function formatBookmarkHeader(bookmarks: readonly string[]): string {
  return bookmarks.map((b) => Buffer.from(b, 'latin1').toString('base64url')).join(',');
}

/**
 * Header values joined into one, each item once (the gateway: the bookmarks of every subgraph
 * call of an operation). Values are items as the services wrote them; nothing is decoded.
 * Undefined when there is nothing to answer.
 */
export function mergeBookmarkHeaders(values: Iterable<string | null | undefined>): string | undefined {
  const items = new Set<string>();
  for (const v of values) for (const item of v?.split(',') ?? []) if (item.trim()) items.add(item.trim());
  return items.size ? [...items].join(',') : undefined;
}
