import type { DialectKind } from './sql-dialect';

/**
 * The statements the repositories send, declared once each at the top of their repository (or
 * store) with `:name` parameters: the one parameter style of the server. Each is named
 * (`<repository>.<what it does>`) and registered, so `src/database/statements.spec.ts` can write
 * every one of them, as each database receives it, to the committed snapshots in `sql/`: a
 * change of a query is a reviewable diff of those files (immich's `sql` folder). Where the two
 * databases need different SQL the statement holds both texts; the repository never asks which
 * database it runs on.
 */
export type StatementText = string | { readonly postgres: string; readonly sqlite: string };

export interface SqlStatement {
  readonly name: string;
  readonly text: StatementText;
}

const registry = new Map<string, SqlStatement>();

/** Declares (and registers) a statement; a second declaration of one name must say the same. */
export function statement(name: string, text: StatementText): SqlStatement {
  const existing = registry.get(name);
  if (existing && JSON.stringify(existing.text) !== JSON.stringify(text)) throw new Error(`SQL statement ${name} declared twice with different text`);
  const declared: SqlStatement = existing ?? Object.freeze({ name, text });
  registry.set(name, declared);
  return declared;
}

/** Every statement declared by the modules loaded so far, by name. */
export function registeredStatements(): SqlStatement[] {
  return [...registry.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export function textFor(sql: SqlStatement, kind: DialectKind): string {
  return typeof sql.text === 'string' ? sql.text : sql.text[kind];
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
