import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailableError, isForeignKeyViolation, isUniqueViolation } from './database-errors';

const withCode = (code: string, message = 'driver error') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailableError', () => {
  it.each(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'EAI_AGAIN'])('recognises the socket code %s', (code) => {
    expect(isDatabaseUnavailableError({ code })).toBe(true);
    expect(isDatabaseUnavailableError(withCode(code))).toBe(true);
  });

  it.each(['57P01', '57P02', '57P03', '53300', '57014', '08000', '08003', '08006', '08001'])('recognises the SQLSTATE %s, raw or wrapped by TypeORM', (code) => {
    expect(isDatabaseUnavailableError({ code })).toBe(true);
    expect(isDatabaseUnavailableError({ message: 'Query failed', driverError: { code } })).toBe(true);
  });

  it.each(['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_LOCKED', 'SQLITE_CANTOPEN', 'SQLITE_IOERR_WRITE', 'SQLITE_FULL', 'SQLITE_READONLY'])(
    'recognises the SQLite code %s',
    (code) => {
      expect(isDatabaseUnavailableError({ code })).toBe(true);
    },
  );

  it.each([
    'Connection terminated due to connection timeout',
    'Connection terminated unexpectedly',
    'timeout exceeded when trying to connect',
    'Query read timeout',
    'the database system is starting up; not currently accepting connections',
    'Cannot use a pool after calling end on the pool',
    'Client has encountered a connection error and is not queryable',
    'The database connection is not open',
  ])('recognises the message %j', (message) => {
    expect(isDatabaseUnavailableError(new Error(message))).toBe(true);
  });

  it('follows cause and AggregateError.errors', () => {
    expect(isDatabaseUnavailableError(new Error('outer', { cause: withCode('ECONNREFUSED') }))).toBe(true);
    expect(isDatabaseUnavailableError(new AggregateError([new Error('x'), withCode('ECONNREFUSED')]))).toBe(true);
  });

  it('does not loop forever on a cyclic chain', () => {
    const a: Record<string, unknown> = { message: 'a' };
    const b: Record<string, unknown> = { message: 'b', cause: a };
    a.cause = b;
    a.driverError = a;
    expect(isDatabaseUnavailableError(a)).toBe(false);
  });

  it.each([
    ['a unique violation', withCode('23505')],
    ['a syntax error', withCode('42601')],
    ['a SQLite constraint', withCode('SQLITE_CONSTRAINT_UNIQUE')],
    ['a plain error', new Error('secret internals')],
    ['a 5-character code not in class 08', withCode('22008')],
    ['a code starting with 08 but longer', withCode('080000')],
    ['a non-string code', { code: 8006 }],
    ['null', null],
    ['undefined', undefined],
    ['a string', 'ECONNREFUSED'],
  ])('does not flag %s', (_name, error) => {
    expect(isDatabaseUnavailableError(error)).toBe(false);
  });
});

describe('isUniqueViolation', () => {
  it.each([
    { code: '23505' },
    { driverError: { code: '23505' } },
    { code: 'SQLITE_CONSTRAINT_UNIQUE' },
    { driverError: { code: 'SQLITE_CONSTRAINT_UNIQUE' } },
    { code: 'SQLITE_CONSTRAINT_PRIMARYKEY' },
    { cause: { code: '23505' } },
  ])('recognises %j', (error) => {
    expect(isUniqueViolation(error)).toBe(true);
  });

  it.each([{ code: '23503' }, { code: 'SQLITE_CONSTRAINT_FOREIGNKEY' }, { code: 'SQLITE_CONSTRAINT_NOTNULL' }, { code: 23505 }, new Error('23505'), null])(
    'does not flag %j',
    (error) => {
      expect(isUniqueViolation(error)).toBe(false);
    },
  );
});

describe('isForeignKeyViolation', () => {
  it.each([{ code: '23503' }, { driverError: { code: '23503' } }, { code: 'SQLITE_CONSTRAINT_FOREIGNKEY' }])('recognises %j', (error) => {
    expect(isForeignKeyViolation(error)).toBe(true);
  });

  it.each([{ code: '23505' }, { code: 'SQLITE_CONSTRAINT_UNIQUE' }, { message: 'foreign key' }, undefined])('does not flag %j', (error) => {
    expect(isForeignKeyViolation(error)).toBe(false);
  });
});
