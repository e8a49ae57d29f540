/**
 * Notices a process that can no longer serve although its database answers: a polluted
 * built-in prototype (issue 9: one `sort=__proto__` wrote onto Object.prototype and every
 * later login answered 500 until restart). The readiness probe reports such a process as
 * down so that the orchestrator replaces it.
 */
const WATCHED: ReadonlyArray<readonly [string, object]> = [
  ['Object.prototype', Object.prototype],
  ['Array.prototype', Array.prototype],
  ['Function.prototype', Function.prototype],
  ['String.prototype', String.prototype],
  ['Number.prototype', Number.prototype],
  ['Boolean.prototype', Boolean.prototype],
];

const ownKeysOf = (target: object): Set<string | symbol> => new Set(Reflect.ownKeys(target));

/** Taken when this module loads, before any request is served. */
const BASELINE = new Map(WATCHED.map(([name, target]) => [name, ownKeysOf(target)]));

/** Returns a description of every problem found; empty when the process looks sound. */
export function processIntegrityProblems(): string[] {
  const problems: string[] = [];
  for (const [name, target] of WATCHED) {
    const baseline = BASELINE.get(name)!;
    const added = Reflect.ownKeys(target).filter((key) => !baseline.has(key));
    if (added.length > 0) problems.push(`${name} has unexpected properties: ${added.map(String).join(', ')}`);
  }
  // Self-check: an empty object literal inherits nothing enumerable, and JSON round-trips.
  for (const key in {}) {
    problems.push(`an empty object inherits the enumerable property ${key}`);
    break;
  }
  if (JSON.stringify(JSON.parse('{"a":[1]}')) !== '{"a":[1]}') problems.push('JSON does not round-trip');
  return problems;
}
