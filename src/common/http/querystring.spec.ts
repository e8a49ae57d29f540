import { describe, expect, it } from 'vitest';
import { parseQueryString } from './querystring';

const plain = (value: object) => ({ ...value });

describe('parseQueryString', () => {
  it('drops parameters named after prototype properties (no DTO has them; class-transformer would assign them)', () => {
    const parsed = parseQueryString('__proto__=1&__proto__[]=2&constructor=x&prototype[]=y&sort=name');
    expect(Object.keys(parsed)).toEqual(['sort']);
    expect(Object.getPrototypeOf(parsed)).toBeNull();
  });

  it('keeps a comma-separated list as one string (the DTOs split it)', () => {
    expect(plain(parseQueryString('building_ids=1,2'))).toEqual({ building_ids: '1,2' });
  });

  it('collects a repeated key into an array, in order', () => {
    expect(plain(parseQueryString('building_ids=1&building_ids=2&building_ids=3'))).toEqual({ building_ids: ['1', '2', '3'] });
  });

  it('reads a[]=1&a[]=2 like a=1&a=2', () => {
    expect(plain(parseQueryString('building_ids[]=1&building_ids[]=2'))).toEqual({ building_ids: ['1', '2'] });
  });

  it('reads a URL-encoded a%5B%5D like a[]', () => {
    expect(plain(parseQueryString('building_ids%5B%5D=1&building_ids%5B%5D=2'))).toEqual({ building_ids: ['1', '2'] });
  });

  it('keeps a single a[]=1 as a plain value', () => {
    expect(plain(parseQueryString('floor_ids[]=7'))).toEqual({ floor_ids: '7' });
  });

  it('merges the bracket and plain forms of the same key', () => {
    expect(plain(parseQueryString('a[]=1&a=2'))).toEqual({ a: ['1', '2'] });
    expect(plain(parseQueryString('a=1&a[]=2'))).toEqual({ a: ['1', '2'] });
    const mixed = parseQueryString('a=1,2&a[]=3&a=4');
    expect([...(mixed.a as string[])].sort()).toEqual(['1,2', '3', '4']);
  });

  it('reads plain keys and leaves other parameters alone', () => {
    expect(plain(parseQueryString('page=2&size=50&sort=-name&name=Main%20hall&q=a+b'))).toEqual({
      page: '2',
      size: '50',
      sort: '-name',
      name: 'Main hall',
      q: 'a b',
    });
  });

  it('reads a key without a value as an empty string', () => {
    expect(plain(parseQueryString('deleted&name='))).toEqual({ deleted: '', name: '' });
  });

  it('returns nothing for an empty query string', () => {
    expect(Object.keys(parseQueryString(''))).toEqual([]);
  });

  it('does not strip brackets in the middle of a key', () => {
    expect(plain(parseQueryString('a[]b=1'))).toEqual({ 'a[]b': '1' });
  });

  it('does not pollute Object.prototype with __proto__', () => {
    const result = parseQueryString('__proto__=x&__proto__[polluted]=yes&constructor[prototype][polluted]=yes&__proto__[]=y');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(Object.getPrototypeOf(result)).toBeNull();
    expect(Object.getOwnPropertyDescriptor(result, '__proto__')).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(result, 'constructor[prototype][polluted]')?.value).toBe('yes');
  });

  it('returns an object without inherited keys', () => {
    const result = parseQueryString('a=1');
    expect('toString' in result).toBe(false);
    expect('hasOwnProperty' in result).toBe(false);
  });
});
