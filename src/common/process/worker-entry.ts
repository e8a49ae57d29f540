import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';

/** How to start a worker thread on a module next to the caller's: `new Worker(source, { eval: true, workerData: { entry, typescript, ... } })`. */
export interface WorkerEntry {
  source: string;
  entry: string;
  typescript: string | null;
}

/**
 * The worker's entry, `{name}.js` beside the compiled caller, or under the test runner its
 * TypeScript source, which the worker compiles as it loads it (and what it requires) with
 * TypeScript's transpiler. `ownFile` is the caller's `__filename`; `fallback` its source path
 * from the working directory where there is none.
 */
export function workerEntry(ownFile: string | undefined, fallback: string, name: string): WorkerEntry {
  const file = typeof ownFile === 'string' ? ownFile : join(process.cwd(), fallback);
  const extension = extname(file);
  const entry = join(dirname(file), `${name}${extension}`);
  const typescript = extension === '.ts' ? createRequire(file).resolve('typescript') : null;
  const source = `
const { workerData } = require('node:worker_threads');
if (workerData.typescript) {
  const ts = require(workerData.typescript);
  const { readFileSync } = require('node:fs');
  const compilerOptions = { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true, experimentalDecorators: true };
  require.extensions['.ts'] = (module, filename) => module._compile(ts.transpileModule(readFileSync(filename, 'utf8'), { fileName: filename, compilerOptions }).outputText, filename);
}
require(workerData.entry);
`;
  return { source, entry, typescript };
}
