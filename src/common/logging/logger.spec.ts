import { describe, expect, it } from 'vitest';
import { createLogger, NestPinoLogger } from './logger';

function capture(level: 'info' | 'debug' = 'info') {
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger({ level, destination: { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) } });
  return { lines, nest: new NestPinoLogger(logger) };
}

describe('NestPinoLogger', () => {
  it('writes Nest messages as the one schema: level name, ISO time, msg, context', () => {
    const { lines, nest } = capture();
    nest.log('Cartograph ready', 'Bootstrap');
    nest.warn('careful', 'Database');
    expect(lines).toEqual([
      expect.objectContaining({ level: 'info', msg: 'Cartograph ready', context: 'Bootstrap', pid: process.pid }),
      expect.objectContaining({ level: 'warn', msg: 'careful', context: 'Database' }),
    ]);
    expect(new Date(lines[0].time as string).toISOString()).toBe(lines[0].time);
  });

  it("turns Nest's start-up chatter into debug lines, hidden at the info level", () => {
    const quiet = capture('info');
    quiet.nest.log('AppModule dependencies initialized', 'InstanceLoader');
    quiet.nest.log('Mapped {/api/v1/version, GET} route', 'RouterExplorer');
    expect(quiet.lines).toEqual([]);
    const verbose = capture('debug');
    verbose.nest.log('Mapped {/api/v1/version, GET} route', 'RouterExplorer');
    expect(verbose.lines).toEqual([expect.objectContaining({ level: 'debug', context: 'RouterExplorer' })]);
  });

  it('keeps an error stack inside the one line', () => {
    const { lines, nest } = capture();
    nest.error('Query failed', 'Error: boom\n    at x (y.ts:1:1)', 'Database');
    nest.error(new Error('thrown'), 'Bootstrap');
    expect(lines[0]).toMatchObject({ level: 'error', msg: 'Query failed', context: 'Database', stack: expect.stringContaining('at x') });
    expect(lines[1]).toMatchObject({ level: 'error', msg: 'thrown', context: 'Bootstrap', err: { type: 'Error', message: 'thrown' } });
  });
});
