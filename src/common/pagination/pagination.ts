import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsString, Matches, Max, Min } from 'class-validator';
import { ownValue } from '../safety/own-lookup';
import { Optional } from '../validation/optional';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 1000;
/** Keeps offsets far inside the integer range of both databases. */
export const MAX_PAGE = 1_000_000;

const toInteger = ({ value }: { value: unknown }) => (typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value);

/** `page` (1-based; 0 also means the first page, as the official client sends it), `size`, `sort`. */
export class PageQuery {
  @ApiPropertyOptional({ minimum: 0, default: 1, description: '1-based page number (0 is read as 1)' })
  @Optional()
  @Transform(toInteger)
  @IsInt()
  @Min(0)
  @Max(MAX_PAGE)
  page?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE })
  @Optional()
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  size?: number;

  @ApiPropertyOptional({ description: '`field` ascending or `-field` descending', example: '-created_at' })
  @Optional()
  @IsString()
  @Matches(/^-?[a-z_]+$/)
  sort?: string;
}

export class PageMetadataDto {
  @ApiProperty() first: boolean;
  @ApiProperty() last: boolean;
  @ApiProperty() total_pages: number;
  @ApiProperty() total_elements: number;
  @ApiProperty() number_of_elements: number;
  @ApiProperty() size: number;
  @ApiProperty({ description: '1-based number of this page' }) number: number;
}

export interface Page<T> {
  data: T[];
  metadata: PageMetadataDto;
}

export interface PageWindow {
  page: number;
  size: number;
  offset: number;
}

export function pageWindow(query: PageQuery): PageWindow {
  const page = Math.max(1, query.page ?? 1);
  const size = query.size ?? DEFAULT_PAGE_SIZE;
  return { page, size, offset: (page - 1) * size };
}

export function toPage<T>(data: T[], total: number, window: PageWindow): Page<T> {
  const totalPages = Math.ceil(total / window.size);
  return {
    data,
    metadata: {
      first: window.page === 1,
      last: window.page >= totalPages,
      total_pages: totalPages,
      total_elements: total,
      number_of_elements: data.length,
      size: window.size,
      number: window.page,
    },
  };
}

export interface SortOrder {
  column: string;
  direction: 'ASC' | 'DESC';
}

/**
 * Resolves `sort=field|-field` against the columns a resource allows; unknown fields are 400.
 * Only the table's own entries count: `__proto__` or `constructor` are unknown fields.
 */
export function parseSort(sort: string | undefined, allowed: Readonly<Record<string, string>>, fallback: SortOrder): SortOrder | null {
  if (!sort) return fallback;
  const descending = sort.startsWith('-');
  const column = ownValue(allowed, descending ? sort.slice(1) : sort);
  return typeof column === 'string' ? { column, direction: descending ? 'DESC' : 'ASC' } : null;
}
