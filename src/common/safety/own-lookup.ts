/**
 * Looks a key up in a table that may be indexed by request input. A plain object would
 * answer `__proto__`, `constructor` or `toString` with what it inherits from
 * `Object.prototype` (issue 9: `sort=__proto__` handed Object.prototype to TypeORM, which
 * then wrote onto it); only the table's own entries count here.
 */
export function ownValue<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/** A frozen lookup table without a prototype: nothing inherited can be read from it. */
export function lookupTable<T>(entries: Record<string, T>): Readonly<Record<string, T>> {
  return Object.freeze(Object.assign(Object.create(null) as Record<string, T>, entries));
}
