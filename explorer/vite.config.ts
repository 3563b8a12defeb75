// The explorer is a static page: built into explorer/dist and served by the gateway at `/`, talking
// to /api/graphql on the same origin. `npm run dev -w @lineage/explorer` proxies the API to a local
// front door (EXPLORER_API, default http://127.0.0.1:9002) so the page can be worked on live.
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  // Relative asset URLs: the page keeps working if the gateway mounts it under a prefix.
  base: './',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
  },
  server: {
    proxy: { '/api': process.env.EXPLORER_API ?? 'http://127.0.0.1:9002' },
  },
});
