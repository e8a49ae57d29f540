import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { IsInt, IsOptional, validate } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { ListQuery, toList } from './list-query';
import { parseQueryString } from './querystring';

describe('toList', () => {
  it('splits a comma-separated string', () => {
    expect(toList('1,2')).toEqual(['1', '2']);
  });

  it('keeps an array of single values', () => {
    expect(toList(['1', '2'])).toEqual(['1', '2']);
  });

  it('splits each array item on commas and flattens', () => {
    expect(toList(['1,2', '3'])).toEqual(['1', '2', '3']);
  });

  it('reads a single value as a one-item list', () => {
    expect(toList('7')).toEqual(['7']);
  });

  it('trims items and drops empty ones', () => {
    expect(toList(' 1 , ,2,, ')).toEqual(['1', '2']);
    expect(toList(['', ' '])).toEqual([]);
    expect(toList('')).toEqual([]);
  });

  it('maps undefined and null to an empty list', () => {
    expect(toList(undefined)).toEqual([]);
    expect(toList(null)).toEqual([]);
    expect(toList([undefined, null, '1'])).toEqual(['1']);
  });

  it('stringifies numbers', () => {
    expect(toList(5)).toEqual(['5']);
    expect(toList([1, 2])).toEqual(['1', '2']);
  });

  it.each(['building_ids=1,2', 'building_ids=1&building_ids=2', 'building_ids[]=1&building_ids[]=2', 'building_ids[]=1&building_ids=2'])(
    'gives the same list for the wire form %s',
    (query) => {
      expect(toList(parseQueryString(query).building_ids)).toEqual(['1', '2']);
    },
  );
});

class SearchQuery {
  @IsOptional()
  @ListQuery({ maxItems: 3 })
  building_ids?: string[];
}

class IntegerQuery {
  @IsOptional()
  @ListQuery({ integers: true })
  @IsInt({ each: true })
  floor_ids?: number[];
}

describe('ListQuery', () => {
  it('turns each wire form into an array', async () => {
    for (const raw of ['1,2', ['1', '2']]) {
      const query = plainToInstance(SearchQuery, { building_ids: raw });
      expect(query.building_ids).toEqual(['1', '2']);
      expect(await validate(query)).toEqual([]);
    }
  });

  it('refuses more items than the limit', async () => {
    const query = plainToInstance(SearchQuery, { building_ids: '1,2,3,4' });
    const errors = await validate(query);
    expect(errors.map((error) => error.property)).toEqual(['building_ids']);
    expect(Object.keys(errors[0].constraints ?? {})).toContain('arrayMaxSize');
  });

  it('accepts exactly the limit', async () => {
    expect(await validate(plainToInstance(SearchQuery, { building_ids: '1,2,3' }))).toEqual([]);
  });

  it('turns digit items into numbers with integers: true, in every wire form', async () => {
    for (const raw of ['1,22', ['1', '22'], ['1,22']]) {
      const query = plainToInstance(IntegerQuery, { floor_ids: raw });
      expect(query.floor_ids).toEqual([1, 22]);
      expect(await validate(query)).toEqual([]);
    }
  });

  it('leaves non-digit items as strings with integers: true, so the validators refuse them', async () => {
    const query = plainToInstance(IntegerQuery, { floor_ids: '1,abc,-2,1.5' });
    expect(query.floor_ids).toEqual([1, 'abc', '-2', '1.5']);
    const errors = await validate(query);
    expect(errors.map((error) => error.property)).toEqual(['floor_ids']);
  });

  it('keeps items as strings without integers', () => {
    expect(plainToInstance(SearchQuery, { building_ids: '1,2' }).building_ids).toEqual(['1', '2']);
  });
});
