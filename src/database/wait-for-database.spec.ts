import { describe, expect, it, vi } from 'vitest';
import { createLogger } from '../common/logging/logger';
import { DatabaseConfig } from '../config/database.config';
import { DatabaseUnreachableError, waitForDatabase } from './wait-for-database';

const POSTGRES: DatabaseConfig = { kind: 'postgres', url: 'postgres://db/c', poolSize: 1, connectTimeoutMs: 100, queryTimeoutMs: 100, logQueries: false };

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  return { lines, logger: createLogger({ destination: { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) } }) };
}

describe('waitForDatabase', () => {
  it('does nothing for SQLite', async () => {
    const connect = vi.fn();
    await waitForDatabase({ kind: 'sqlite', path: '/x', busyTimeoutMs: 1, logQueries: false }, 1, capture().logger, connect);
    expect(connect).not.toHaveBeenCalled();
  });

  it('retries with doubling delays, one line per failed attempt, until the database answers', async () => {
    vi.useFakeTimers();
    try {
      const { lines, logger } = capture();
      let calls = 0;
      const connect = async () => {
        calls += 1;
        if (calls < 4) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
      };
      const done = waitForDatabase(POSTGRES, 60, logger, connect);
      await vi.advanceTimersByTimeAsync(500 + 1000 + 2000);
      await done;
      expect(calls).toBe(4);
      expect(lines.map((line) => [line.msg, line.attempt, line.retry_in_ms])).toEqual([
        ['Database not reachable yet; retrying', 1, 500],
        ['Database not reachable yet; retrying', 2, 1000],
        ['Database not reachable yet; retrying', 3, 2000],
        ['Database reachable', 4, undefined],
      ]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('caps the delay at 5 s and gives up at the deadline with a one-line error', async () => {
    vi.useFakeTimers();
    try {
      const { lines, logger } = capture();
      const done = waitForDatabase(POSTGRES, 12, logger, async () => {
        throw new Error('connect ECONNREFUSED');
      });
      const outcome = expect(done).rejects.toThrow(new DatabaseUnreachableError('The database cannot be reached after 12 s (6 attempts): connect ECONNREFUSED'));
      await vi.advanceTimersByTimeAsync(13_000);
      await outcome;
      // 0.5 + 1 + 2 + 4 s, then the 4.5 s that remain of the 12, then a last attempt at the deadline.
      expect(lines.map((line) => line.retry_in_ms)).toEqual([500, 1000, 2000, 4000, 4500]);
    } finally {
      vi.useRealTimers();
    }
  });
});
