import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsInt, Max, Min } from 'class-validator';
import { MAX_INTEGER_ID } from './params';

/** Splits `a=1,2`, `a=1&a=2` and `a[]=1&a[]=2` (the parser strips `[]`) into one array. */
export function toList(value: unknown): string[] {
  const items = Array.isArray(value) ? value : [value];
  return items
    .flatMap((item) => (typeof item === 'string' ? item.split(',') : item === undefined || item === null ? [] : [String(item)]))
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

const toIntegerOrKeep = (item: string): number | string => (/^\d{1,10}$/.test(item) ? Number(item) : item);

/**
 * A list query parameter in any of the three forms of contract section 1. With
 * `integers`, items made of digits become numbers (the validators refuse the rest).
 */
export function ListQuery({ maxItems = 1000, integers = false }: { maxItems?: number; integers?: boolean } = {}) {
  return applyDecorators(
    Transform(({ value }) => (integers ? toList(value).map(toIntegerOrKeep) : toList(value))),
    IsArray(),
    ArrayMaxSize(maxItems),
  );
}

/** A list of integer ids (`building_ids`, `floor_ids`): each a positive id the database can hold. */
export function IdListQuery() {
  return applyDecorators(ListQuery({ integers: true }), IsInt({ each: true }), Min(1, { each: true }), Max(MAX_INTEGER_ID, { each: true }));
}
