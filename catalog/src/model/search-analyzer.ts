// How catalogue search splits text into words, on both sides: the words stored in an entity's
// `searchText` (indexed by Neo4j's whitespace analyzer, so these words are exactly the index terms)
// and the words a query must find. It follows DataHub's search analyzer
// (docs/wire-contract.md §Catalogue search): text is cut into pieces at whitespace and `(),:/`, each
// piece is kept whole and also split into words at `.`, `_`, `-`, `/` and case changes, all lower
// case; a query's words match as prefixes, and DataHub's default synonyms (stg/staging, …) apply.
// Splitting is done here rather than by a custom Lucene analyzer because Neo4j only offers its
// built-in analyzers, none of which splits `fct_orders` or `db.schema.table`.

/** Longest term kept: longer pieces (a pasted blob in a description) are only indexed by their words. */
const MAX_TERM = 120;

/** Characters that end a piece (DataHub's main tokenizer: `[(),./:]` plus whitespace; `.` splits words below). */
const PIECE_SPLIT = /[\s(),:/\\'"`;|<>[\]{}]+/;

/** Word boundaries inside a piece: delimiters, and case changes (fooBar, HTTPServer). */
function wordsOfPiece(piece: string): string[] {
  return piece
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0)
    .map((w) => w.toLowerCase());
}

/** A piece as stored whole: lower case, its delimiters kept, outer punctuation trimmed. */
function wholeOf(piece: string): string {
  return piece.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '').toLowerCase();
}

/**
 * The index words of some texts (name, qualified name, urn, description): every piece whole and each
 * of its words, deduplicated, space-separated. `db.sales.fct_orders` gives `db.sales.fct_orders db
 * sales fct orders`.
 */
export function searchTextOf(texts: ReadonlyArray<string | null | undefined>): string {
  const out = new Set<string>();
  for (const text of texts) {
    if (!text) continue;
    for (const piece of text.split(PIECE_SPLIT)) {
      const whole = wholeOf(piece);
      if (whole && whole.length <= MAX_TERM) out.add(whole);
      for (const w of wordsOfPiece(piece)) if (w.length <= MAX_TERM) out.add(w);
    }
  }
  return [...out].join(' ');
}

/**
 * DataHub's default synonym groups (its `synonyms/default.txt`): a query word in a group also
 * matches the others. Only the one-word groups; DataHub's multi-word ones (`customer acquisition
 * cost`) are not supported.
 */
const SYNONYM_GROUPS: ReadonlyArray<readonly string[]> = [
  ['stg', 'staging'],
  ['dev', 'development'],
  ['prod', 'production'],
  ['glue', 'athena'],
];

function synonymsOf(word: string): readonly string[] {
  return SYNONYM_GROUPS.find((g) => g.includes(word)) ?? [word];
}

export interface SearchQuery {
  /** Each entry: the alternatives of one required word (the word and its synonyms), all lower case. */
  words: string[][];
  /** The query's whole pieces (lower case), which rank an entity holding them higher. */
  pieces: string[];
}

/** A query's words; undefined when it asks for everything (`""`, `*`). */
export function searchQueryOf(text: string): SearchQuery | undefined {
  const words: string[][] = [];
  const pieces: string[] = [];
  const seen = new Set<string>();
  for (const piece of text.split(PIECE_SPLIT)) {
    if (piece === '*' || !piece) continue;
    const whole = wholeOf(piece.replace(/\*+$/, ''));
    if (whole && whole.length <= MAX_TERM) pieces.push(whole);
    for (const w of wordsOfPiece(piece)) {
      if (seen.has(w)) continue;
      seen.add(w);
      words.push([...synonymsOf(w)]);
    }
  }
  return words.length ? { words, pieces } : undefined;
}

// Lucene's query syntax characters; escaped so user text is always literal.
const LUCENE_SPECIAL = /[+\-&|!(){}[\]^"~*?:\\/]/g;
const escape = (t: string) => t.replace(LUCENE_SPECIAL, '\\$&');

/**
 * A query as Lucene text for the index over `searchText`: every word required (as a prefix, or any
 * of its synonyms), and the whole pieces as optional exact terms that lift entities holding them.
 */
export function luceneOf(q: SearchQuery): string {
  const required = q.words.map((alts) =>
    alts.length === 1 ? `+${escape(alts[0]!)}*` : `+(${alts.map((a) => `${escape(a)}*`).join(' ')})`,
  );
  // A single-word piece is already a required word; a compound one (fct_orders) lifts exact holders.
  const boosts = q.pieces.filter((p) => /[^\p{L}\p{N}]/u.test(p)).map((p) => `${escape(p)}^4`);
  return [...required, ...boosts].join(' ');
}
