import { describe, expect, it } from 'vitest';
import { createLogger } from './logger';
import { requestLineWriter, RequestLogFields } from './request-logging';

function capture(level: 'info' | 'warn' = 'info') {
  const lines: string[] = [];
  const logger = createLogger({ level, destination: { write: (line: string) => lines.push(line) } });
  return { lines, logger };
}

const fields: RequestLogFields = {
  requestId: 'c0ffee-42',
  method: 'GET',
  route: '/api/v1/geofences/"quoted"\\path\n',
  status: 404,
  durationMs: 1.25,
  client: '127.0.0.1',
  userId: 'a3c1e0a8-9d43-4b6a-b8a1-6f0d1d7a1c11',
  organizationId: null,
};

describe('request log lines', () => {
  it("are the very line pino writes for logger.info(fields, 'request'): same keys in the same order, same values", () => {
    const { lines, logger } = capture();
    logger.info(
      {
        request_id: fields.requestId,
        method: fields.method,
        route: fields.route,
        status: fields.status,
        duration_ms: fields.durationMs,
        client: fields.client,
        user_id: fields.userId,
        organization_id: fields.organizationId,
      },
      'request',
    );
    requestLineWriter(logger)(fields);
    expect(lines).toHaveLength(2);
    const [fromPino, fast] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[1].endsWith('}\n')).toBe(true);
    expect(Object.keys(fast)).toEqual(Object.keys(fromPino));
    expect({ ...fast, time: undefined }).toEqual({ ...fromPino, time: undefined });
    expect(fast.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(Math.abs(Date.parse(fast.time as string) - Date.parse(fromPino.time as string))).toBeLessThan(1000);
  });

  it('write the time of each line to the millisecond, across seconds', () => {
    const { lines, logger } = capture();
    const write = requestLineWriter(logger);
    const realNow = Date.now;
    try {
      for (const now of [Date.UTC(2026, 10, 27, 23, 59, 59, 7), Date.UTC(2026, 10, 27, 23, 59, 59, 999), Date.UTC(2026, 10, 28, 0, 0, 0, 40)]) {
        Date.now = () => now;
        write(fields);
      }
    } finally {
      Date.now = realNow;
    }
    expect(lines.map((line) => (JSON.parse(line) as { time: string }).time)).toEqual(['2026-11-27T23:59:59.007Z', '2026-11-27T23:59:59.999Z', '2026-11-28T00:00:00.040Z']);
  });

  it('are not written when the level leaves info out', () => {
    const { lines, logger } = capture('warn');
    requestLineWriter(logger)(fields);
    expect(lines).toEqual([]);
  });
});
