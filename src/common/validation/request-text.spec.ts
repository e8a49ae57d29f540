import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inspectRequestData, MAX_REQUEST_DEPTH, MAX_TEXT_PROBLEMS, textProblem } from './request-text';

const nested = (levels: number, leaf: unknown = 1): unknown => {
  let value: unknown = leaf;
  for (let level = 0; level < levels; level += 1) value = level % 2 === 0 ? [value] : { a: value };
  return value;
};

describe('textProblem', () => {
  it('accepts ordinary text, emoji (surrogate pairs) included', () => {
    for (const text of ['', 'plain', 'Café ünïcode', '😀 pair \ud83d\ude00', '\ufffd']) expect(textProblem(text), text).toBeNull();
  });

  it.each(['\u0000', 'a\u0000b'])('refuses NUL in %j', (text) => {
    expect(textProblem(text)).toMatch(/NUL/);
  });

  it.each(['\ud800', 'a\udfffb', '\ude00\ud83d', 'x\ud83d'])('refuses the lone surrogate in %j', (text) => {
    expect(textProblem(text)).toMatch(/lone UTF-16 surrogate/);
  });

  it('agrees with String.prototype.isWellFormed (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const wellFormed = (text as string & { isWellFormed(): boolean }).isWellFormed();
        expect(textProblem(text) === null).toBe(wellFormed && !text.includes('\u0000'));
      }),
      { seed: 9, numRuns: 200 },
    );
  });
});

describe('inspectRequestData', () => {
  it('finds nothing in ordinary data', () => {
    expect(inspectRequestData({ name: 'A', custom_fields: [{ key: 'k', value: 'v' }], geometric: [[1, 2]], n: null })).toBeNull();
    expect(inspectRequestData(undefined)).toBeNull();
  });

  it('names each bad field, values and keys, with its dotted path', () => {
    const problem = inspectRequestData({ name: 'a\u0000', custom_fields: [{ key: 'k', value: '\ud800' }], tags: { ['bad\udc00']: 1 } });
    expect(problem).toEqual({
      kind: 'text',
      errors: [
        { message: 'contains a NUL character (\\u0000)', code: 'invalid', fields: 'name' },
        { message: 'is not well-formed Unicode (it contains a lone UTF-16 surrogate)', code: 'invalid', fields: 'custom_fields[0].value' },
        { message: 'has a key that is not well-formed Unicode (it contains a lone UTF-16 surrogate)', code: 'invalid', fields: 'tags' },
      ],
    });
  });

  it('names the body itself when it is a bad string', () => {
    expect(inspectRequestData('\u0000')).toEqual({ kind: 'text', errors: [expect.objectContaining({ fields: 'body' })] });
  });

  it('accepts data nested exactly to the limit and refuses one level more', () => {
    expect(inspectRequestData(nested(MAX_REQUEST_DEPTH))).toBeNull();
    expect(inspectRequestData(nested(MAX_REQUEST_DEPTH + 1))).toEqual({ kind: 'too_deep', fields: expect.any(String) });
  });

  it('walks 100,000 levels without overflowing the stack', () => {
    expect(inspectRequestData(nested(100_000))?.kind).toBe('too_deep');
    expect(inspectRequestData(nested(100_000), Number.POSITIVE_INFINITY)).toBeNull();
  });

  it('reports at most MAX_TEXT_PROBLEMS problems', () => {
    const problem = inspectRequestData(Array.from({ length: 1000 }, () => '\u0000'));
    expect(problem?.kind === 'text' && problem.errors.length).toBe(MAX_TEXT_PROBLEMS);
  });
});
