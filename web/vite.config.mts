import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The dashboard is served by the API server itself at `/` (see src/dashboard/ on the server side).
// Everything it loads comes from this build: no CDN, no external fonts, no map tiles.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  publicDir: 'public',
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    // Read by scripts/web-sizes.mjs: what each page loads.
    manifest: true,
    // terra-draw (about 250 KB, loaded only when a fence is drawn) is the largest chunk.
    chunkSizeWarningLimit: 300,
  },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
});
