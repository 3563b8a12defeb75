import { advanceCausalChain, currentCausalChain, runCausally } from './causality.ts';

describe('causal chain of a request', () => {
  test('starts from the presented bookmarks (each once) and exists only inside the request', async () => {
    expect(currentCausalChain()).toBeUndefined();
    await runCausally(['p', 'p'], async () => {
      await new Promise((r) => setImmediate(r));
      expect(currentCausalChain()).toEqual({ bookmarks: ['p'], wrote: false });
    });
    expect(currentCausalChain()).toBeUndefined();
  });

  test('a transaction replaces what it started with by what it reached; a concurrent one keeps its own', () => {
    runCausally(['p'], (chain) => {
      const first = chain.bookmarks;
      const second = chain.bookmarks;
      advanceCausalChain(chain, first, ['r1'], false);
      expect(chain).toEqual({ bookmarks: ['r1'], wrote: false });
      // Started before the first ended: 'r1' is not covered by what it reached.
      advanceCausalChain(chain, second, ['w2'], true);
      expect(chain).toEqual({ bookmarks: ['r1', 'w2'], wrote: true });
      advanceCausalChain(chain, chain.bookmarks, ['w3'], true);
      expect(chain).toEqual({ bookmarks: ['w3'], wrote: true });
    });
  });

  test('a transaction that reports no bookmark leaves the chain as it was', () => {
    runCausally(['p'], (chain) => {
      advanceCausalChain(chain, chain.bookmarks, [], false);
      expect(chain.bookmarks).toEqual(['p']);
    });
  });
});
