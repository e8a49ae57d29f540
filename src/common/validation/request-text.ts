import { FieldError } from '../errors/api-error';

/**
 * How deep request data may nest. The deepest legitimate body (a path graph, a geofence ring)
 * nests 4 levels; 32 leaves room for clients' unknown keys while keeping every later walk of the
 * data (class-transformer, class-validator) far from the stack limit.
 */
export const MAX_REQUEST_DEPTH = 32;

/** At most this many text problems are reported: a body full of them must not make a huge answer. */
export const MAX_TEXT_PROBLEMS = 50;

export type RequestDataProblem = { kind: 'too_deep'; fields: string } | { kind: 'text'; errors: FieldError[] };

// With the u flag a surrogate pair is one code point: only lone surrogates match.
const LONE_SURROGATE = /\p{Surrogate}/u;

const childPath = (path: string, key: string | number): string => (typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key);

/** Why a string cannot be accepted as text, or null when it can. */
export function textProblem(text: string): string | null {
  // PostgreSQL cannot store U+0000 in text; a lone UTF-16 surrogate is not Unicode at all
  // (PostgreSQL refuses it, and UTF-8 encoders silently turn it into U+FFFD).
  if (text.includes('\u0000')) return 'contains a NUL character (\\u0000)';
  if (LONE_SURROGATE.test(text)) return 'is not well-formed Unicode (it contains a lone UTF-16 surrogate)';
  return null;
}

/** A value still to be looked at, and how it was reached: its path is spelled out only for a problem. */
interface Pending {
  value: unknown;
  parent: Pending | null;
  key: string | number;
  depth: number;
}

function pathOf(node: Pending): string {
  const keys: Array<string | number> = [];
  for (let at: Pending = node; at.parent !== null; at = at.parent) keys.push(at.key);
  let path = '';
  for (let index = keys.length - 1; index >= 0; index -= 1) path = childPath(path, keys[index]);
  return path;
}

/** Only strings and containers can hold a problem; numbers, booleans and null are not even queued. */
const mayHoldText = (value: unknown): boolean => typeof value === 'string' || (value !== null && typeof value === 'object');

/**
 * Walks parsed request data iteratively (never recursively: a 4 KB body can nest 2,000 levels)
 * and reports the first problem kind found: data nested deeper than `maxDepth`, or the fields
 * (values and keys) holding text that cannot be stored. Every body goes through here, batches
 * of thousands of readings included, so paths are built only for the fields reported.
 */
export function inspectRequestData(value: unknown, maxDepth = MAX_REQUEST_DEPTH): RequestDataProblem | null {
  const errors: FieldError[] = [];
  const stack: Pending[] = [{ value, parent: null, key: '', depth: 0 }];
  // Items of a batch repeat the same keys (and often values): each distinct good text is checked once.
  const storable = new Set<string>();
  const problemOf = (text: string): string | null => {
    if (storable.has(text)) return null;
    const problem = textProblem(text);
    if (problem === null && text.length <= 64) storable.add(text);
    return problem;
  };
  while (stack.length > 0) {
    const node = stack.pop()!;
    const current = node.value;
    if (typeof current === 'string') {
      const problem = problemOf(current);
      if (problem && errors.length < MAX_TEXT_PROBLEMS) errors.push({ message: problem, code: 'invalid', fields: pathOf(node) || 'body' });
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    const depth = node.depth + 1;
    if (node.depth >= maxDepth) return { kind: 'too_deep', fields: pathOf(node) || 'body' };
    if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index -= 1) {
        const child: unknown = current[index];
        if (mayHoldText(child)) stack.push({ value: child, parent: node, key: index, depth });
      }
      continue;
    }
    const keys = Object.keys(current);
    for (let index = keys.length - 1; index >= 0; index -= 1) {
      const key = keys[index];
      const problem = problemOf(key);
      // The key itself cannot be echoed safely as a path: name its parent and say why.
      if (problem && errors.length < MAX_TEXT_PROBLEMS) errors.push({ message: `has a key that ${problem}`, code: 'invalid', fields: pathOf(node) || 'body' });
      const child: unknown = (current as Record<string, unknown>)[key];
      if (mayHoldText(child)) stack.push({ value: child, parent: node, key: problem ? '?' : key, depth });
    }
  }
  return errors.length > 0 ? { kind: 'text', errors } : null;
}
