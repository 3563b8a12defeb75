// The OpenAPI scrolls' sliceId / sliceMax over edges (DataHub hands them to Elasticsearch's sliced
// scroll): every edge falls in exactly one of `max` slices, whatever else the request asks.

/** Which of `max` slices an edge falls in: a 32-bit FNV-1a hash of its (source, type, destination). */
export function edgeSliceOf(source: string, type: string, destination: string, max: number): number {
  let h = 0x811c9dc5;
  for (const ch of `${source}\u0000${type}\u0000${destination}`) {
    h ^= ch.codePointAt(0)!;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % max;
}
