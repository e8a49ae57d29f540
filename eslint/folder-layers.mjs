import { dirname, relative, resolve, sep } from 'node:path';
import { LAYERS } from './layers.mjs';

/** The top-level folder (or file, without its extension) of src/ a path is in; null outside src/. */
function topOf(source, file) {
  const path = relative(source, file);
  if (path.startsWith('..')) return null;
  const [first, ...rest] = path.split(sep);
  return rest.length > 0 ? first : first.replace(/\.(ts|js)$/, '');
}

/**
 * Each top-level folder of src/ imports only the folders eslint/layers.mjs allows it: the layers
 * point one way, so no folder-level import circle can form.
 */
export const folderLayers = {
  meta: {
    type: 'problem',
    docs: { description: 'A folder of src/ imports only the folders its layer allows (docs/architecture.md)' },
    schema: [],
    messages: {
      unknown: 'src/{{from}} is not in eslint/layers.mjs: add it to the layering (and to docs/architecture.md)',
      forbidden: 'src/{{from}} may not import src/{{to}} (docs/architecture.md; allowed: {{allowed}})',
    },
  },
  create(context) {
    const source = resolve(context.cwd, 'src');
    const from = topOf(source, context.filename);
    if (from === null) return {};
    const allowed = LAYERS[from];
    const check = (node, specifier) => {
      if (typeof specifier !== 'string' || !specifier.startsWith('.')) return;
      const to = topOf(source, resolve(dirname(context.filename), specifier));
      if (to === null || to === from) return;
      if (allowed === undefined) return context.report({ node, messageId: 'unknown', data: { from } });
      if (allowed === '*' || allowed.includes(to)) return;
      context.report({ node, messageId: 'forbidden', data: { from, to, allowed: allowed.join(', ') || 'nothing' } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};
