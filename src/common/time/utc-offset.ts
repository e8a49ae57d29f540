import { ApiError, FieldError } from '../errors/api-error';

/** The widest UTC offsets in use anywhere (Kiribati +14:00, Baker Island −12:00), both ways. */
export const MAX_UTC_OFFSET_MINUTES = 14 * 60;

/** A trailing `±hh`, `±hhmm` or `±hh:mm` after the time of day. */
const TRAILING_OFFSET = /T[^+-]*([+-])(\d\d)(?::?(\d\d))?$/i;

/**
 * Why the UTC offset of an ISO 8601 date-time cannot be real (beyond ±14:00, or minutes past
 * 59), or null when it can or the text has none (`Z`, a date only, no offset). Parsers accept
 * `+99:00` and shift the instant by four days without a word.
 */
export function utcOffsetProblem(text: string): string | null {
  const match = TRAILING_OFFSET.exec(text);
  if (!match) return null;
  const hours = Number(match[2]);
  const minutes = match[3] === undefined ? 0 : Number(match[3]);
  if (minutes > 59 || hours * 60 + minutes > MAX_UTC_OFFSET_MINUTES)
    return `the UTC offset ${match[1]}${match[2]}${match[3] === undefined ? '' : `:${match[3]}`} is not a real one (at most ±14:00)`;
  return null;
}

/** The 422 field error for a parameter whose offset cannot be real, or null. */
export function utcOffsetError(value: unknown, name: string): FieldError | null {
  if (typeof value !== 'string') return null;
  const problem = utcOffsetProblem(value);
  return problem ? { message: problem, code: 'out_of_range', fields: name, value: value.slice(0, 64) } : null;
}

/** Throws 422 validation_failed naming the parameter when its UTC offset cannot be real. */
export function assertUtcOffset(value: unknown, name: string): void {
  const error = utcOffsetError(value, name);
  if (error) throw ApiError.validation(`${name} has an impossible UTC offset`, [error]);
}

/** A query's date-time parameter (`YYYY-MM-DDThh:mm...`), its problems added to `errors`; null when absent or wrong. */
export function queryDateTime(value: unknown, field: string, errors: FieldError[]): number | null {
  if (value === undefined || value === '') return null;
  const offset = utcOffsetError(value, field);
  if (offset) {
    errors.push(offset);
    return null;
  }
  const parsed = typeof value === 'string' && /^\d{4}-\d\d-\d\dT/.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(parsed)) {
    errors.push({ message: 'must be an ISO 8601 date-time', code: 'invalid', fields: field, value });
    return null;
  }
  return parsed;
}
