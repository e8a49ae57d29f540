import { describe, expect, it } from 'vitest';
import { replayRequestErrors } from './webhook-replay.service';

const fields = (body: Record<string, unknown>) => replayRequestErrors(body).map((error) => error.fields);

describe('replayRequestErrors', () => {
  it('takes a range or a list, one of them', () => {
    expect(fields({ from: '2026-01-01T00:00:00Z', to: '2026-01-31T00:00:00Z' })).toEqual([]);
    expect(fields({ event_ids: ['evt_1'] })).toEqual([]);
    expect(fields({})).toEqual(['from,to,event_ids']);
    expect(fields({ to: '2026-01-01T00:00:00Z', event_ids: ['evt_1'] })).toEqual(['from,to,event_ids']);
  });

  it('needs both ends of a range, in order, at most 31 days apart', () => {
    expect(fields({ from: '2026-01-01T00:00:00Z' })).toEqual(['to']);
    expect(fields({ to: '2026-01-01T00:00:00Z' })).toEqual(['from']);
    expect(fields({ from: '2026-01-02T00:00:00Z', to: '2026-01-01T00:00:00Z' })).toEqual(['from']);
    expect(fields({ from: '2026-01-01T00:00:00Z', to: '2026-02-01T00:00:00Z' })).toEqual([]);
    expect(fields({ from: '2026-01-01T00:00:00Z', to: '2026-02-01T00:00:00.001Z' })).toEqual(['from,to']);
  });
});
