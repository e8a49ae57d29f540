import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { containsPattern } from '../common/database/like';
import { PreparedQueries } from '../database/prepared-queries';
import { inList, namedList } from '../database/sql-dialect';
import { SqlRunner, StatementValue } from '../database/sql-runner';
import { statementFamily } from '../database/statements';
import { User } from './user.entity';

/** The columns a list of users sorts by (never-active users last, then by id). */
export type UserSortColumn = 'full_name' | 'email' | 'code' | 'created_at' | 'updated_at' | 'last_activity';
const SORT_COLUMNS: ReadonlySet<string> = new Set<UserSortColumn>(['full_name', 'email', 'code', 'created_at', 'updated_at', 'last_activity']);

/** The filters of a list of an organization's users; each list filters where not empty. */
export interface UserListFilters {
  organizationId: string;
  /** This user only (a USER's list), or null. */
  self: string | null;
  ids: readonly string[];
  excludeIds: readonly string[];
  /** Members of any of these groups. */
  groupIds: readonly string[];
  /** Users restricted to any of these buildings. */
  buildingIds: readonly number[];
  /** Users restricted to some buildings (true) or to none (false); undefined: either. */
  hasBuildings: boolean | undefined;
  /** A substring of the lower-cased full name. */
  fullNameContains: string | undefined;
  codes: readonly string[];
}

const LISTS = [
  ['ids', 'i', (list: string) => `"u"."id" IN (${list})`],
  ['excludeIds', 'x', (list: string) => `"u"."id" NOT IN (${list})`],
  ['groupIds', 'g', (list: string) => `"u"."id" IN (SELECT gm."user_id" FROM "group_members" gm WHERE gm."group_id" IN (${list}))`],
  ['buildingIds', 'b', (list: string) => `"u"."id" IN (SELECT ub."user_id" FROM "user_buildings" ub WHERE ub."building_id" IN (${list}))`],
] as const;

/**
 * The conditions of a list of shape `self:ids:excluded:groups:buildings:has:name:codes`: 0/1 for
 * the self and the name filters, the sizes of the lists (0: none), `-`, `with` or `without` for
 * the buildings restriction.
 */
function listWhere(shape: string): string {
  const [self, ids, excluded, groups, buildings, has, name, codes] = shape.split(':');
  const conditions = ['"u"."organization_id" = :organizationId'];
  if (self === '1') conditions.push('"u"."id" = :self');
  [ids, excluded, groups, buildings].forEach((size, i) => {
    if (Number(size) > 0) conditions.push(LISTS[i][2](inList(LISTS[i][1], Number(size))));
  });
  if (has !== '-') conditions.push(`${has === 'with' ? '' : 'NOT '}EXISTS (SELECT 1 FROM "user_buildings" hb WHERE hb."user_id" = "u"."id")`);
  if (name === '1') conditions.push(`"u"."full_name_lower" LIKE :fullName ESCAPE '\\'`);
  if (Number(codes) > 0) conditions.push(`"u"."code" IN (${inList('c', Number(codes))})`);
  return conditions.join(' AND ');
}

/** A page of a list: shape `…:column:direction` (listWhere's, then the sort). */
const LIST_PAGE = statementFamily<string>(
  'users.list-page',
  ['0:0:0:0:0:-:0:0:created_at:ASC', '1:2:2:2:2:with:1:2:last_activity:DESC', '0:0:0:0:0:without:0:0:full_name:ASC'],
  (shape) => {
    const parts = shape.split(':');
    const [column, direction] = parts.slice(8);
    if (!SORT_COLUMNS.has(column) || (direction !== 'ASC' && direction !== 'DESC')) throw new Error(`No list of users sorts by ${column} ${direction}`);
    // Never-active users sort last on both databases (their NULL defaults differ).
    return `SELECT "u".* FROM "users" "u" WHERE ${listWhere(parts.slice(0, 8).join(':'))} ORDER BY "u"."${column}" ${direction} NULLS LAST, "u"."id" ASC LIMIT :limit OFFSET :offset`;
  },
);
const LIST_COUNT = statementFamily<string>(
  'users.list-count',
  ['0:0:0:0:0:-:0:0', '1:2:2:2:2:with:1:2'],
  (shape) => `SELECT COUNT(*) AS "total" FROM "users" "u" WHERE ${listWhere(shape)}`,
);

/** The lists of an organization's users (GET /users), read as entities on the main connection. */
@Injectable()
export class UsersRepository {
  private readonly hydrate: (row: Record<string, unknown>) => User;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly sql: SqlRunner,
    queries: PreparedQueries,
  ) {
    this.hydrate = queries.hydrator(User);
  }

  /** A page of the filtered users in the order given, then by id. */
  async page(filters: UserListFilters, sort: { column: UserSortColumn; direction: 'ASC' | 'DESC' }, window: { size: number; offset: number }): Promise<User[]> {
    const { shape, parameters } = listQuery(filters);
    const rows = await this.sql.query<Record<string, unknown>>(this.dataSource.manager, LIST_PAGE.of(`${shape}:${sort.column}:${sort.direction}`), {
      ...parameters,
      limit: window.size,
      offset: window.offset,
    });
    return rows.map(this.hydrate);
  }

  /** How many users the filters find. */
  async count(filters: UserListFilters): Promise<number> {
    const { shape, parameters } = listQuery(filters);
    const [{ total }] = await this.sql.query<{ total: number | string }>(this.dataSource.manager, LIST_COUNT.of(shape), parameters);
    return Number(total);
  }
}

function listQuery(filters: UserListFilters): { shape: string; parameters: Record<string, StatementValue> } {
  const parameters: Record<string, StatementValue> = { organizationId: filters.organizationId };
  if (filters.self !== null) parameters.self = filters.self;
  const sizes = LISTS.map(([field, prefix]) => {
    const values = filters[field];
    if (values.length === 0) return 0;
    const list = namedList(prefix, values);
    Object.assign(parameters, list.parameters);
    return Object.keys(list.parameters).length;
  });
  if (filters.fullNameContains) parameters.fullName = containsPattern(filters.fullNameContains);
  let codes = 0;
  if (filters.codes.length > 0) {
    const list = namedList('c', filters.codes);
    Object.assign(parameters, list.parameters);
    codes = Object.keys(list.parameters).length;
  }
  const has = filters.hasBuildings === undefined ? '-' : filters.hasBuildings ? 'with' : 'without';
  const shape = [filters.self === null ? 0 : 1, ...sizes, has, filters.fullNameContains ? 1 : 0, codes].join(':');
  return { shape, parameters };
}
