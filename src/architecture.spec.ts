import { ESLint } from 'eslint';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LAYERS } from '../eslint/layers.mjs';

const ROOT = join(__dirname, '..');

/** The layers as docs/architecture.md states them: `| \`folder\` | … | \`a\`, \`b\` |` rows of its folder table. */
function documentedLayers(): Record<string, string[] | '*'> {
  const text = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
  const table = text.slice(text.indexOf('<!-- layers -->'), text.indexOf('<!-- /layers -->'));
  const layers: Record<string, string[] | '*'> = {};
  for (const line of table.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    const folder = /^`([\w.-]+)`$/.exec(cells[1] ?? '')?.[1];
    if (!folder) continue;
    const imports = cells[3] ?? '';
    layers[folder] = imports === 'everything' ? '*' : imports === '—' ? [] : [...imports.matchAll(/`([\w.-]+)`/g)].map((match) => match[1]).sort();
  }
  return layers;
}

describe('the house keeps its shape', () => {
  it('lints clean: typescript-eslint, and every folder of src/ imports only what its layer allows (eslint/layers.mjs)', async () => {
    const eslint = new ESLint({ cwd: ROOT });
    const results = await eslint.lintFiles(['src', 'migrations', 'test']);
    const problems = results.flatMap((result) => result.messages.map((message) => `${result.filePath.slice(ROOT.length + 1)}:${message.line} ${message.ruleId}: ${message.message}`));
    expect(problems).toEqual([]);
  }, 300_000);

  it('has a layer for every top-level folder of src/, and the layers point one way (no circle can form)', () => {
    const entries = readdirSync(join(ROOT, 'src'), { withFileTypes: true }).filter((entry) => entry.isDirectory() || (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')));
    const folders = [...new Set(entries.map((entry) => entry.name.replace(/\.ts$/, '')))].sort();
    expect(folders).toEqual(Object.keys(LAYERS).sort());
    // Depth-first: a folder reached again while on the path is a circle.
    const state = new Map<string, 'open' | 'done'>();
    const visit = (folder: string, path: string[]): void => {
      if (state.get(folder) === 'done') return;
      if (state.get(folder) === 'open') throw new Error(`layers circle: ${[...path, folder].join(' -> ')}`);
      state.set(folder, 'open');
      const allowed = LAYERS[folder as keyof typeof LAYERS];
      if (allowed !== '*') for (const below of allowed) visit(below, [...path, folder]);
      state.set(folder, 'done');
    };
    for (const folder of Object.keys(LAYERS)) visit(folder, []);
  });

  it('docs/architecture.md states the layers the lint rule enforces', () => {
    const enforced = Object.fromEntries(Object.entries(LAYERS).map(([folder, allowed]) => [folder, allowed === '*' ? '*' : [...allowed].sort()]));
    expect(documentedLayers()).toEqual(enforced);
  });
});
