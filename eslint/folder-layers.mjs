import { dirname, relative, resolve, sep } from 'node:path';
import { LAYERS, NEVER, PURE, SPEC_IMPORTS, WEB_IMPORTS } from './layers.mjs';

/** The top-level folder (or file, without its extension) of src/ a path is in; null outside src/. */
function topOf(source, file) {
  const path = relative(source, file);
  if (path.startsWith('..')) return null;
  const [first, ...rest] = path.split(sep);
  return rest.length > 0 ? first : first.replace(/\.(ts|js)$/, '');
}

/** A path inside `base` as a module id (`a/b/c`, no extension), null outside it. */
function moduleOf(base, file) {
  const path = relative(base, file);
  if (path === '' || path.startsWith('..') || path.startsWith(sep)) return null;
  return path
    .split(sep)
    .join('/')
    .replace(/\.(d\.ts|tsx?|mts|cts|jsx?|mjs|cjs)$/, '');
}

/** Whether module id `id` is inside the entry `entry` (the folder, or the file and its spec). */
const inside = (id, entry) => id === entry || id === `${entry}.spec` || id.startsWith(`${entry}/`);

/** The npm package a bare specifier names (`@scope/name`, `name`, `node:fs`). */
const packageOf = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/** The string a module specifier node holds when it is written out (a literal, a template without holes). */
function literal(node) {
  if (!node) return null;
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0].value.cooked;
  if (node.type === 'TSLiteralType') return literal(node.literal);
  return null;
}

/** Whether an import or export declaration brings in types only (erased when compiled). */
function typeOnly(node) {
  if (node.importKind === 'type' || node.exportKind === 'type') return true;
  if (node.type === 'ImportDeclaration' && node.specifiers.length > 0) return node.specifiers.every((s) => s.importKind === 'type');
  if (node.type === 'ExportNamedDeclaration' && node.specifiers.length > 0) return node.specifiers.every((s) => s.exportKind === 'type');
  return false;
}

/**
 * What a file may import, by where it is (docs/architecture.md, eslint/layers.mjs):
 * - each top-level folder of src/ imports only the folders its layer allows: the layers point one
 *   way, so no folder-level import circle can form;
 * - pure code (PURE) imports only itself, the pure entries and files it names, and its npm
 *   packages; its specs may import the test runner and test/support/ too;
 * - a folder of NEVER never imports the one it names;
 * - web/src imports from src/ only the files WEB_IMPORTS names.
 * Every way of naming a module counts: import and export declarations (type-only ones too),
 * `import x = require()`, `import()`, `require()` and `import('…')` types.
 */
export const folderLayers = {
  meta: {
    type: 'problem',
    docs: { description: 'A file imports only what the layer of its folder allows (docs/architecture.md)' },
    schema: [],
    messages: {
      unknown: 'src/{{from}} is not in eslint/layers.mjs: add it to the layering (and to docs/architecture.md)',
      forbidden: 'src/{{from}} may not import src/{{to}} (docs/architecture.md; allowed: {{allowed}})',
      pure: 'src/{{entry}} is pure and may not import {{to}} (eslint/layers.mjs PURE; allowed: {{allowed}})',
      dynamic: 'src/{{entry}} is pure: it names what it loads with a literal path',
      never: 'src/{{from}} never imports src/{{to}} (docs/architecture.md)',
      web: 'web/ may import from src/ only the files eslint/layers.mjs WEB_IMPORTS names, not src/{{to}}',
    },
  },
  create(context) {
    const root = context.cwd;
    const source = resolve(root, 'src');
    const web = resolve(root, 'web');
    const filename = resolve(root, context.filename);
    const fromId = moduleOf(source, filename);
    const inWeb = moduleOf(resolve(web, 'src'), filename) !== null;
    if (fromId === null && !inWeb) return {};

    const from = fromId === null ? null : topOf(source, filename);
    const allowed = from === null ? undefined : LAYERS[from];
    const pureEntry = fromId === null ? undefined : Object.keys(PURE).find((entry) => inside(fromId, entry));
    const isSpec = /\.spec\.tsx?$/.test(filename);
    const never = fromId === null ? [] : NEVER.filter((rule) => inside(fromId, rule.from));

    /** Checks the pure rules; answers whether it reported. */
    const checkPure = (node, specifier, target) => {
      const pure = PURE[pureEntry];
      const packages = [...pure.packages, ...(isSpec ? SPEC_IMPORTS.packages : [])];
      let ok;
      let to;
      if (target === null) {
        to = specifier;
        ok = packages.includes(packageOf(specifier));
      } else {
        const id = moduleOf(source, target);
        to = id === null ? relative(root, target).split(sep).join('/') : `src/${id}`;
        ok =
          id !== null
            ? inside(id, pureEntry) || pure.pure.some((entry) => inside(id, entry)) || pure.files.includes(id)
            : isSpec && SPEC_IMPORTS.folders.some((folder) => moduleOf(resolve(root, folder), target) !== null);
      }
      if (ok) return false;
      const names = [pureEntry, ...pure.pure]
        .map((entry) => `src/${entry}`)
        .concat(
          pure.files.map((file) => `src/${file}`),
          packages,
        );
      context.report({ node, messageId: 'pure', data: { entry: pureEntry, to, allowed: names.join(', ') } });
      return true;
    };

    const check = (node, specifier, types) => {
      if (specifier === null) {
        if (pureEntry) context.report({ node, messageId: 'dynamic', data: { entry: pureEntry } });
        return;
      }
      const relativePath = specifier.startsWith('.');
      const target = relativePath ? resolve(dirname(filename), specifier) : null;
      if (inWeb) {
        const id = target === null ? null : moduleOf(source, target);
        if (id !== null && !WEB_IMPORTS.includes(id)) context.report({ node, messageId: 'web', data: { to: id } });
        return;
      }
      if (pureEntry && checkPure(node, specifier, target)) return;
      if (target === null) return;
      const toId = moduleOf(source, target);
      if (toId === null) return;
      for (const rule of never) {
        if (!inside(toId, rule.to)) continue;
        if (types && (rule.typeOnly?.[fromId] ?? []).includes(toId)) continue;
        context.report({ node, messageId: 'never', data: { from: rule.from, to: rule.to } });
      }
      const to = topOf(source, target);
      if (to === null || to === from) return;
      if (allowed === undefined) return context.report({ node, messageId: 'unknown', data: { from } });
      if (allowed === '*' || allowed.includes(to)) return;
      context.report({ node, messageId: 'forbidden', data: { from, to, allowed: allowed.join(', ') || 'nothing' } });
    };

    const isRequire = (callee) => callee.type === 'Identifier' && callee.name === 'require';
    return {
      ImportDeclaration: (node) => check(node, literal(node.source), typeOnly(node)),
      ExportNamedDeclaration: (node) => node.source && check(node, literal(node.source), typeOnly(node)),
      ExportAllDeclaration: (node) => check(node, literal(node.source), node.exportKind === 'type'),
      ImportExpression: (node) => check(node, literal(node.source), false),
      CallExpression: (node) => isRequire(node.callee) && check(node, literal(node.arguments[0]), false),
      TSImportEqualsDeclaration: (node) =>
        node.moduleReference.type === 'TSExternalModuleReference' && check(node, literal(node.moduleReference.expression), node.importKind === 'type'),
      // typescript-eslint 8 names the module `source` (`argument` before).
      TSImportType: (node) => check(node, literal(node.source ?? node.argument), true),
    };
  },
};
