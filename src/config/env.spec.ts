import { describe, expect, it } from 'vitest';
import { ConfigurationError, readBoolean, readInteger, readList, readOptionalString, readString } from './env';

describe('ConfigurationError', () => {
  it('is an Error with its own name', () => {
    const error = new ConfigurationError('bad');
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ConfigurationError');
    expect(error.message).toBe('bad');
  });
});

describe('readString', () => {
  it('reads a trimmed value', () => {
    expect(readString({ HOST: '  127.0.0.1 ' }, 'HOST', '0.0.0.0')).toBe('127.0.0.1');
  });

  it('falls back when unset, empty or blank', () => {
    expect(readString({}, 'HOST', '0.0.0.0')).toBe('0.0.0.0');
    expect(readString({ HOST: '' }, 'HOST', '0.0.0.0')).toBe('0.0.0.0');
    expect(readString({ HOST: '   ' }, 'HOST', '0.0.0.0')).toBe('0.0.0.0');
  });
});

describe('readOptionalString', () => {
  it('reads a trimmed value, undefined when unset or blank', () => {
    expect(readOptionalString({ X: ' v ' }, 'X')).toBe('v');
    expect(readOptionalString({}, 'X')).toBeUndefined();
    expect(readOptionalString({ X: '' }, 'X')).toBeUndefined();
    expect(readOptionalString({ X: ' \t' }, 'X')).toBeUndefined();
  });
});

describe('readInteger', () => {
  it('reads an integer', () => {
    expect(readInteger({ PORT: '8080' }, 'PORT', 3000)).toBe(8080);
    expect(readInteger({ PORT: ' 0 ' }, 'PORT', 3000)).toBe(0);
  });

  it('falls back when unset or blank', () => {
    expect(readInteger({}, 'PORT', 3000)).toBe(3000);
    expect(readInteger({ PORT: ' ' }, 'PORT', 3000)).toBe(3000);
  });

  it('accepts the bounds themselves', () => {
    expect(readInteger({ N: '1' }, 'N', 5, { min: 1, max: 10 })).toBe(1);
    expect(readInteger({ N: '10' }, 'N', 5, { min: 1, max: 10 })).toBe(10);
  });

  it.each(['abc', '1.5', '12abc', 'NaN', 'Infinity'])('refuses %j', (raw) => {
    expect(() => readInteger({ PORT: raw }, 'PORT', 3000)).toThrow(ConfigurationError);
  });

  it('refuses negative values by default and values out of bounds, naming the variable', () => {
    expect(() => readInteger({ N: '-1' }, 'N', 5)).toThrow(ConfigurationError);
    expect(() => readInteger({ N: '0' }, 'N', 5, { min: 1 })).toThrow('N must be an integer between 1 and');
    expect(() => readInteger({ PORT: '65536' }, 'PORT', 3000, { min: 0, max: 65535 })).toThrow('PORT must be an integer between 0 and 65535, got "65536"');
  });
});

describe('readBoolean', () => {
  it.each(['1', 'true', 'TRUE', 'yes', 'On', ' true '])('reads %j as true', (raw) => {
    expect(readBoolean({ B: raw }, 'B', false)).toBe(true);
  });

  it.each(['0', 'false', 'False', 'no', 'OFF'])('reads %j as false', (raw) => {
    expect(readBoolean({ B: raw }, 'B', true)).toBe(false);
  });

  it('falls back when unset or blank', () => {
    expect(readBoolean({}, 'B', true)).toBe(true);
    expect(readBoolean({ B: '' }, 'B', false)).toBe(false);
    expect(readBoolean({ B: '  ' }, 'B', true)).toBe(true);
  });

  it.each(['maybe', '2', 'y', 'enabled'])('refuses %j', (raw) => {
    expect(() => readBoolean({ B: raw }, 'B', true)).toThrow(ConfigurationError);
  });
});

describe('readList', () => {
  it('splits on commas, trims, and drops empty items', () => {
    expect(readList({ L: 'a, b ,,c, ' }, 'L')).toEqual(['a', 'b', 'c']);
  });

  it('is empty when unset or blank', () => {
    expect(readList({}, 'L')).toEqual([]);
    expect(readList({ L: '' }, 'L')).toEqual([]);
    expect(readList({ L: ' , ' }, 'L')).toEqual([]);
  });
});
