import { ApiError } from '../../common/errors/api-error';
import { MAX_INTEGER_ID } from '../../common/http/params';
import { toList } from '../../common/http/list-query';

/** Most ids one list parameter takes (contract section 1 lists; a longer one is refused, naming it). */
export const MAX_LIST_ITEMS = 1000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const bad = (name: string, message: string, value?: unknown): ApiError =>
  ApiError.badRequest(`Invalid query parameter ${name}: ${message}`, [{ message, code: 'invalid', fields: name, ...(value === undefined ? {} : { value }) }]);

/** A raw query value that must be one string (a repeated scalar parameter is refused, naming it). */
export function singleValue(raw: Record<string, unknown>, name: string): string | undefined {
  const value = raw[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw bad(name, 'must be given once');
  return value;
}

/** The first of several spellings that is present (`from` or `from_date`), with the name it came under. */
export function aliased(raw: Record<string, unknown>, ...names: string[]): { name: string; value: string | undefined } {
  for (const name of names) {
    const value = singleValue(raw, name);
    if (value !== undefined) return { name, value };
  }
  return { name: names[0], value: undefined };
}

function listOf(raw: Record<string, unknown>, name: string, required: boolean): string[] {
  const items = [...new Set(toList(raw[name]))];
  if (required && items.length === 0) throw ApiError.badRequest(`${name} is required`, [{ message: `${name} is required`, code: 'required', fields: name }]);
  if (items.length > MAX_LIST_ITEMS) throw bad(name, `takes at most ${MAX_LIST_ITEMS} ids`);
  return items;
}

/** Integer ids in any list form (repeated, comma-joined, `name[]`). */
export function idList(raw: Record<string, unknown>, name: string, required = false): number[] {
  return listOf(raw, name, required).map((item) => {
    const id = /^\d{1,10}$/.test(item) ? Number(item) : Number.NaN;
    if (!(id >= 1 && id <= MAX_INTEGER_ID)) throw bad(name, 'must be positive integer ids', item.slice(0, 64));
    return id;
  });
}

/** UUIDs in any list form, lower-cased. */
export function uuidList(raw: Record<string, unknown>, name: string, required = false): string[] {
  return listOf(raw, name, required).map((item) => {
    if (!UUID.test(item)) throw bad(name, 'must be UUIDs', item.slice(0, 64));
    return item.toLowerCase();
  });
}

/** `organizationId` / `organization_id` of the 2020 analytics client, checked as a UUID (the caller's is checked by `assertCallerOrganization`). */
export function organizationIdOf(raw: Record<string, unknown>): string | undefined {
  const { name, value } = aliased(raw, 'organization_id', 'organizationId');
  if (value === undefined || value === '') return undefined;
  if (!UUID.test(value)) throw bad(name, 'must be a UUID', value.slice(0, 64));
  return value;
}
