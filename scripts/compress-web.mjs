#!/usr/bin/env node
// After `vite build`: writes .br and .gz beside every text asset of dist/web, so the server
// sends them precompressed (@fastify/static `preCompressed`) with no compression work per request.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = new URL('../dist/web/', import.meta.url).pathname;
const compressible = /\.(js|mjs|css|html|svg|json|map)$/;
let files = 0;
let before = 0;
let afterBr = 0;
function walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (compressible.test(name)) {
      const data = readFileSync(path);
      const br = brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } });
      writeFileSync(`${path}.br`, br);
      writeFileSync(`${path}.gz`, gzipSync(data, { level: 9 }));
      files++;
      before += data.length;
      afterBr += br.length;
    }
  }
}
walk(root);
console.log(`compress-web: ${files} files, ${(before / 1024).toFixed(0)} KiB -> ${(afterBr / 1024).toFixed(0)} KiB brotli`);
