import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../logging/logger';
import { exitCleanlyOnSignals } from './shutdown';

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  return { lines, logger: createLogger({ destination: { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) } }) };
}

describe('exitCleanlyOnSignals', () => {
  let remove: (() => void) | undefined;
  afterEach(() => {
    remove?.();
    vi.useRealTimers();
  });

  it('on SIGTERM logs, closes everything, logs that it stopped, and exits 0', async () => {
    const { lines, logger } = capture();
    const closed: string[] = [];
    const exit = vi.fn();
    remove = exitCleanlyOnSignals(() => [{ close: async () => closed.push('app') }, { close: async () => closed.push('metrics') }], logger, exit);
    process.emit('SIGTERM');
    await vi.waitFor(() => expect(exit).toHaveBeenCalled());
    expect(closed).toEqual(['app', 'metrics']);
    expect(exit).toHaveBeenCalledWith(0);
    expect(lines.map((line) => line.msg)).toEqual(['Shutting down: finishing in-flight requests', 'Cartograph stopped']);
    expect(lines[0]).toMatchObject({ signal: 'SIGTERM', context: 'Shutdown' });
  });

  it('stops the same way on SIGHUP (no log file to reopen, configuration read at start only)', async () => {
    const { lines, logger } = capture();
    const closed: string[] = [];
    const exit = vi.fn();
    remove = exitCleanlyOnSignals(() => [{ close: async () => closed.push('app') }], logger, exit);
    process.emit('SIGHUP');
    await vi.waitFor(() => expect(exit).toHaveBeenCalled());
    expect(closed).toEqual(['app']);
    expect(exit).toHaveBeenCalledWith(0);
    expect(lines.map((line) => [line.msg, line.signal])).toEqual([
      ['Shutting down: finishing in-flight requests', 'SIGHUP'],
      ['Cartograph stopped', undefined],
    ]);
  });

  it('exits 1 at once on a second signal, and after 25 s when closing hangs', async () => {
    vi.useFakeTimers();
    const hanging = { close: () => new Promise(() => undefined) };
    const first = capture();
    const exitOnSecond = vi.fn();
    remove = exitCleanlyOnSignals(() => [hanging], first.logger, exitOnSecond);
    process.emit('SIGINT');
    process.emit('SIGINT');
    await vi.advanceTimersByTimeAsync(300);
    expect(exitOnSecond).toHaveBeenCalledWith(1);
    remove();

    const exitOnDeadline = vi.fn();
    remove = exitCleanlyOnSignals(() => [hanging], capture().logger, exitOnDeadline);
    process.emit('SIGTERM');
    await vi.advanceTimersByTimeAsync(24_000);
    expect(exitOnDeadline).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1_300);
    expect(exitOnDeadline).toHaveBeenCalledWith(1);
  });
});
