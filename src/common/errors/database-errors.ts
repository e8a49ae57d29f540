/**
 * Classifies errors raised by the database drivers (pg, better-sqlite3), whether thrown raw
 * by a pool or wrapped by TypeORM (`QueryFailedError.driverError`).
 */
const UNREACHABLE_SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'EAI_AGAIN']);

// PostgreSQL SQLSTATEs meaning "the server cannot serve you now" (class 08 is connection exceptions).
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '57014']);

const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|CANTOPEN|IOERR|FULL|READONLY)/;

const UNAVAILABLE_MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /query read timeout/i,
  /connection timeout/i,
  /not currently accepting connections/i,
  /cannot use a pool after calling end/i,
  /client has encountered a connection error/i,
  /the database connection is not open/i,
];

const UNIQUE_VIOLATION_CODES = new Set(['23505', 'SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY']);
const FOREIGN_KEY_VIOLATION_CODES = new Set(['23503', 'SQLITE_CONSTRAINT_FOREIGNKEY']);
// Text the database cannot store (PostgreSQL refuses U+0000 and invalid encodings).
// 22001 (value too long) belongs here too: the DTOs bound every length, so it means a value the
// database measures differently (for example after lower-casing).
const UNSTORABLE_TEXT_CODES = new Set(['22021', '22P05', '22001']);

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  driverError?: unknown;
  cause?: unknown;
  errors?: unknown;
}

function* errorChain(error: unknown): Generator<ErrorLike> {
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  while (pending.length > 0) {
    const current = pending.shift();
    if (current === null || typeof current !== 'object' || seen.has(current)) continue;
    seen.add(current);
    const candidate = current as ErrorLike;
    yield candidate;
    pending.push(candidate.driverError, candidate.cause);
    if (Array.isArray(candidate.errors)) pending.push(...candidate.errors);
  }
}

export function isDatabaseUnavailableError(error: unknown): boolean {
  for (const candidate of errorChain(error)) {
    const code = typeof candidate.code === 'string' ? candidate.code : '';
    if (UNREACHABLE_SOCKET_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code)) return true;
    if (code.startsWith('08') && code.length === 5) return true;
    if (SQLITE_UNAVAILABLE.test(code)) return true;
    const message = typeof candidate.message === 'string' ? candidate.message : '';
    if (UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message))) return true;
  }
  return false;
}

export function isUniqueViolation(error: unknown): boolean {
  for (const candidate of errorChain(error)) {
    if (typeof candidate.code === 'string' && UNIQUE_VIOLATION_CODES.has(candidate.code)) return true;
  }
  return false;
}

export function isUnstorableText(error: unknown): boolean {
  for (const candidate of errorChain(error)) {
    if (typeof candidate.code === 'string' && UNSTORABLE_TEXT_CODES.has(candidate.code)) return true;
  }
  return false;
}

export function isForeignKeyViolation(error: unknown): boolean {
  for (const candidate of errorChain(error)) {
    if (typeof candidate.code === 'string' && FOREIGN_KEY_VIOLATION_CODES.has(candidate.code)) return true;
  }
  return false;
}
