// DataHub's urnLike scopes are SQL LIKE patterns; Cypher matches regular expressions (Java's).

/** SQL LIKE (with % and _, and \ escaping them) as an anchored Java regular expression. */
export function likeToRegex(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\' && i + 1 < pattern.length) {
      out += pattern[++i]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    } else if (c === '%') out += '.*';
    else if (c === '_') out += '.';
    else out += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return `(?s)${out}`;
}
