import { parse } from 'node:querystring';

/**
 * Parses a query string so that `a[]=1&a[]=2` reads like `a=1&a=2` (contract section 1: list
 * parameters come in three forms). Comma-separated values are split by the DTOs.
 */
/** Names no parameter has, which class-transformer would assign onto a DTO's prototype chain. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export function parseQueryString(raw: string): Record<string, string | string[]> {
  const parsed = parse(raw);
  const result: Record<string, string | string[]> = Object.create(null);
  for (const [rawKey, value] of Object.entries(parsed)) {
    if (value === undefined) continue;
    const key = rawKey.endsWith('[]') ? rawKey.slice(0, -2) : rawKey;
    if (PROTOTYPE_KEYS.has(key)) continue;
    const existing = result[key];
    if (existing === undefined) {
      result[key] = value;
    } else {
      result[key] = [...(Array.isArray(existing) ? existing : [existing]), ...(Array.isArray(value) ? value : [value])];
    }
  }
  return result;
}
