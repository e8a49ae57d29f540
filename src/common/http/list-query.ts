import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray } from 'class-validator';
import { applyDecorators } from '@nestjs/common';

/** Splits `a=1,2`, `a=1&a=2` and `a[]=1&a[]=2` (the parser strips `[]`) into one array. */
export function toList(value: unknown): string[] {
  const items = Array.isArray(value) ? value : [value];
  return items
    .flatMap((item) => (typeof item === 'string' ? item.split(',') : item === undefined || item === null ? [] : [String(item)]))
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** A list query parameter in any of the three forms of contract section 1. */
export function ListQuery(maxItems = 1000) {
  return applyDecorators(
    Transform(({ value }) => toList(value)),
    IsArray(),
    ArrayMaxSize(maxItems),
  );
}
