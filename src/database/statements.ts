import { DialectKind, PostgresDialect, SqlDialect, SqliteDialect } from './sql-dialect';

/**
 * The statements the repositories send, declared once each at the top of their repository (or
 * store) with `:name` parameters: the one parameter style of the server. Each is named
 * (`<repository>.<what it does>`) and registered, so `src/database/statements.spec.ts` can write
 * every one of them, as each database receives it, to the committed snapshots in `sql/`: a
 * change of a query is a reviewable diff of those files (immich's `sql` folder). Where the two
 * databases need different SQL the statement holds both texts; the repository never asks which
 * database it runs on.
 */
export type StatementText = string | { readonly postgres: string | null; readonly sqlite: string | null };

export interface SqlStatement {
  readonly name: string;
  readonly text: StatementText;
}

const DIALECTS = { postgres: new PostgresDialect(), sqlite: new SqliteDialect() } as const;

/** A statement's two texts from one builder given each database's dialect (its column expressions: `utcText`, `epochMs`, …). */
export function perDialect(build: (dialect: SqlDialect) => string): StatementText {
  const postgres = build(DIALECTS.postgres);
  const sqlite = build(DIALECTS.sqlite);
  return postgres === sqlite ? postgres : { postgres, sqlite };
}

/**
 * A statement one database alone receives, where the other does the work another way (PostgreSQL
 * records a batch of outcomes in one statement, SQLite one at a time): the snapshot says so, and
 * sending it to the other database is an error.
 */
export function onlyOn(kind: DialectKind, text: string): StatementText {
  return kind === 'postgres' ? { postgres: text, sqlite: null } : { postgres: null, sqlite: text };
}

const registry = new Map<string, SqlStatement>();
const families = new Map<string, StatementFamily<string | number>>();

/** Declares (and registers) a statement; a second declaration of one name must say the same. */
export function statement(name: string, text: StatementText): SqlStatement {
  const existing = registry.get(name);
  if (existing && JSON.stringify(existing.text) !== JSON.stringify(text)) throw new Error(`SQL statement ${name} declared twice with different text`);
  const declared: SqlStatement = existing ?? Object.freeze({ name, text });
  registry.set(name, declared);
  return declared;
}

/**
 * Statements of one shape each for a few shapes: an `IN` list or a multi-row `VALUES` of n items
 * (one text per n, so each is prepared once), a read with optional filters. `of(shape)` gives the
 * statement of a shape (built once); the snapshot shows the family at its `samples`.
 */
export interface StatementFamily<Shape extends string | number> {
  readonly name: string;
  readonly samples: readonly Shape[];
  of(shape: Shape): SqlStatement;
}

/** Shapes kept built per family: batch limits bound them (a few thousand at most). */
const MAX_SHAPES = 4096;

export function statementFamily<Shape extends string | number>(name: string, samples: readonly Shape[], build: (shape: Shape) => StatementText): StatementFamily<Shape> {
  const built = new Map<Shape, SqlStatement>();
  const family: StatementFamily<Shape> = {
    name,
    samples,
    of(shape) {
      let sql = built.get(shape);
      if (!sql) {
        if (built.size >= MAX_SHAPES) built.clear();
        built.set(shape, (sql = Object.freeze({ name: `${name}[${shape}]`, text: build(shape) })));
      }
      return sql;
    },
  };
  if (families.has(name) || registry.has(name)) throw new Error(`SQL statement ${name} declared twice`);
  families.set(name, family as StatementFamily<string | number>);
  return family;
}

/** Every statement declared by the modules loaded so far, by name; a family at each of its samples. */
export function registeredStatements(): SqlStatement[] {
  const all = [...registry.values()];
  for (const family of families.values()) for (const shape of family.samples) all.push(family.of(shape));
  return all.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export function textFor(sql: SqlStatement, kind: DialectKind): string {
  if (typeof sql.text === 'string') return sql.text;
  const text = sql.text[kind];
  if (text === null) throw new Error(`SQL statement ${sql.name} is not sent to ${kind}`);
  return text;
}

/** Whether a database receives the statement (see onlyOn). */
export function sentTo(sql: SqlStatement, kind: DialectKind): boolean {
  return typeof sql.text === 'string' || sql.text[kind] !== null;
}

export interface PositionalStatement {
  /** The SQL the driver receives: `$1, $2, …` on PostgreSQL (one number per name), `?` on SQLite (one per use). */
  text: string;
  /** The parameter names in the order of the driver's values. */
  names: string[];
}

/**
 * The one translator of `:name` parameters into the driver's positional ones. A name is a letter
 * or underscore and word characters after a single colon, outside quoted text: PostgreSQL's
 * `::type` casts and the colons of string literals are left alone.
 */
export function positional(text: string, kind: DialectKind): PositionalStatement {
  const names: string[] = [];
  const numbers = new Map<string, number>();
  let out = '';
  let i = 0;
  while (i < text.length) {
    const char = text[i];
    if (char === "'" || char === '"') {
      const end = closingQuote(text, i);
      out += text.slice(i, end);
      i = end;
      continue;
    }
    if (char === ':' && text[i + 1] === ':') {
      out += '::';
      i += 2;
      continue;
    }
    if (char === ':' && /[A-Za-z_]/.test(text[i + 1] ?? '')) {
      let end = i + 2;
      while (end < text.length && /\w/.test(text[end])) end += 1;
      const name = text.slice(i + 1, end);
      if (kind === 'postgres') {
        let number = numbers.get(name);
        if (number === undefined) {
          names.push(name);
          number = names.length;
          numbers.set(name, number);
        }
        out += `$${number}`;
      } else {
        names.push(name);
        out += '?';
      }
      i = end;
      continue;
    }
    out += char;
    i += 1;
  }
  return { text: out, names };
}

/**
 * A statement whose values are given as an array, in the order its `:name`s first appear: a
 * batch's rows without a map of names (a 500-row insert has 6,000). `expand` picks, on SQLite
 * (one `?` a use), the value of each use; null when each name is used once.
 */
export interface OrderedStatement {
  readonly text: string;
  readonly expand: readonly number[] | null;
}

const ordered = { postgres: new WeakMap<SqlStatement, OrderedStatement>(), sqlite: new WeakMap<SqlStatement, OrderedStatement>() };

/** The driver's text of `sql` for values in first-use order (see OrderedStatement), translated once per statement and database. */
export function orderedStatement(sql: SqlStatement, kind: DialectKind): OrderedStatement {
  let found = ordered[kind].get(sql);
  if (!found) {
    const { text, names } = positional(textFor(sql, kind), kind);
    const first = new Map<string, number>();
    for (const name of names) if (!first.has(name)) first.set(name, first.size);
    const expand = names.length === first.size ? null : names.map((name) => first.get(name)!);
    ordered[kind].set(sql, (found = Object.freeze({ text, expand })));
  }
  return found;
}

/** The driver's values of an ordered statement. */
export function orderedValues(sql: OrderedStatement, values: readonly unknown[]): unknown[] {
  return sql.expand === null ? (values as unknown[]) : sql.expand.map((index) => values[index]);
}

/**
 * The rows of a multi-row `VALUES` with named parameters, `(:organization_id_0, :device_id_0, …), (…_1)`:
 * what a statement family declares per row count; the values go row after row, in column order.
 */
export function namedRows(columns: readonly string[], rows: number): string {
  const names = columns.map((column) => column.replace(/\W/g, ''));
  return Array.from({ length: rows }, (_, row) => `(${names.map((name) => `:${name}_${row}`).join(', ')})`).join(', ');
}

/** The index just past the quote that closes the one at `start` (a doubled quote is part of the text). */
function closingQuote(text: string, start: number): number {
  const quote = text[start];
  let i = start + 1;
  while (i < text.length) {
    if (text[i] === quote) {
      if (text[i + 1] === quote) {
        i += 2;
        continue;
      }
      return i + 1;
    }
    i += 1;
  }
  return text.length;
}
