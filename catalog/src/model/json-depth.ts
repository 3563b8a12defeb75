// Request limits every process shares (issue 7 item 5): JSON nesting depth and the HTTP servers'
// receive timeouts. GraphQL's own limits live in service-kit/src/graphql-limits.ts.

/**
 * Deepest nesting accepted in JSON bodies, aspect values and patches. Jackson (DataHub's parser)
 * refuses deeper documents by default too; deeper values would overflow the stack of every
 * recursive walk after parsing (JSON.stringify, validation, patching) and turn into 500s.
 */
export const MAX_JSON_DEPTH = 1000;

/**
 * Whether a JSON text nests arrays/objects deeper than `max`, checked before parsing: one linear
 * pass without recursion (safe on hostile input) that stops at the first level over the limit.
 * Strings are skipped, escapes honoured. Returns the problem, or undefined when within the limit.
 */
export function jsonDepthProblem(text: string, max: number = MAX_JSON_DEPTH): string | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return `JSON nesting is deeper than ${max} levels`;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return undefined;
}
