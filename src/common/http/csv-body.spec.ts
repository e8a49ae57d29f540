import { describe, expect, it } from 'vitest';
import { isCsvContentType, prefersCsv } from './csv-body';

describe('CSV content negotiation', () => {
  it.each([
    [undefined, false],
    ['*/*', false],
    ['application/json', false],
    ['text/csv', true],
    ['text/csv;q=0.5, application/json', false],
    ['text/csv, application/json;q=0.9', true],
    ['text/csv, */*;q=0.1', true],
    ['Text/CSV; charset=utf-8', true],
    ['text/csv;q=0', false],
  ])('Accept %j prefers CSV: %s', (accept, expected) => {
    expect(prefersCsv(accept)).toBe(expected);
  });

  it('recognises a text/csv body with parameters, in any case', () => {
    expect(isCsvContentType('text/csv; charset=utf-8')).toBe(true);
    expect(isCsvContentType('TEXT/CSV')).toBe(true);
    expect(isCsvContentType('application/json')).toBe(false);
    expect(isCsvContentType(undefined)).toBe(false);
  });
});
