import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { describe, expect, it } from 'vitest';
import { PreparedQueries } from '../../database/prepared-queries';
import { ReportQueries } from '../worker/report-queries';
import { ReportFencesRepository } from './report-fences.repository';
import { VisitSpan } from './visit-aggregates';
import { byEnteredAt, mergeVisits, VisitReader } from './visit-reader';

describe('mergeVisits', () => {
  it('merges lists each in report order into the order of sorting them all (entered_at, then id)', () => {
    const list = fc.array(fc.record({ at: fc.integer({ min: 0, max: 50 }), id: fc.string({ minLength: 1, maxLength: 4 }) }), { maxLength: 30 });
    fc.assert(
      fc.property(fc.array(list, { maxLength: 12 }), (drawn) => {
        // Unique ids, as visits have.
        let serial = 0;
        const lists: VisitSpan[][] = drawn.map((rows) =>
          rows.map((row) => ({ id: `${row.id}-${serial++}`, fenceId: 'f', deviceId: 'd', userId: null, enteredAt: row.at, exitedAt: null, exitReason: null })).sort(byEnteredAt),
        );
        expect([...mergeVisits(lists)]).toEqual(lists.flat().sort(byEnteredAt));
      }),
      { numRuns: 300 },
    );
  });
});

describe('VisitReader.visitsByFence', () => {
  const ORG = '6f57014e-5b87-43d0-b9d6-f1016c9cdb4c';
  const FENCES = ['0aaaaaaa-0000-4000-8000-000000000000', '1bbbbbbb-0000-4000-8000-000000000000', '2ccccccc-0000-4000-8000-000000000000'];
  const DAY = 86_400_000;
  const from = Date.UTC(2026, 10, 1);
  const window = { fromMs: from, toMs: from + 10 * DAY, zone: 'UTC' };
  const text = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 23);

  it.each([
    ['a SQLite file (the reader worker)', true],
    ['an in-memory SQLite database', false],
  ])('on %s: every visit under way in the window, per fence, across keyset pages, in report order', async (_name, onFile) => {
    const dir = mkdtempSync(join(tmpdir(), 'visit-reader-'));
    const dataSource = new DataSource({ type: 'better-sqlite3', database: onFile ? join(dir, 'db.sqlite') : ':memory:', enableWAL: onFile });
    await dataSource.initialize();
    const reports = new ReportQueries(dataSource, new PreparedQueries(dataSource));
    try {
      await dataSource.query(
        'CREATE TABLE geofence_visits (id varchar PRIMARY KEY, organization_id varchar, geofence_id varchar, device_id varchar, user_id varchar, entered_at datetime, exited_at datetime, exit_reason varchar)',
      );
      const rows: Array<[string, string, string, number, number | null]> = [];
      // Fence 0: 23 visits in the window, some sharing an entered_at (the keyset's id tie-break); one older still open; one older and over.
      for (let i = 0; i < 23; i++) rows.push([`v0-${String(i).padStart(2, '0')}`, ORG, FENCES[0], from + Math.floor(i / 2) * 3_600_000 + 123, from + i * 3_600_000 + 60_000]);
      rows.push(['v0-open', ORG, FENCES[0], from - DAY, null], ['v0-over', ORG, FENCES[0], from - 2 * DAY, from - DAY], ['v0-after', ORG, FENCES[0], from + 10 * DAY, null]);
      // Fence 1: three visits, one of another organization.
      rows.push(['v1-a', ORG, FENCES[1], from + DAY, from + DAY + 5_000], ['v1-b', ORG, FENCES[1], from - 1, from + 1], ['v1-x', 'other-org', FENCES[1], from + DAY, null]);
      for (const [id, organization, fence, entered, exited] of rows) {
        await dataSource.query('INSERT INTO geofence_visits VALUES (?, ?, ?, ?, ?, ?, ?, ?)', [
          id,
          organization,
          fence,
          'dev',
          null,
          text(entered),
          exited === null ? null : text(exited),
          exited === null ? null : 'position',
        ]);
      }
      const reader = new VisitReader({} as ReportFencesRepository, reports);
      const byFence = await reader.visitsByFence(ORG, FENCES, window, 5);
      const expected = (fence: string) =>
        rows
          .filter(([, organization, id, entered, exited]) => organization === ORG && id === fence && entered < window.toMs && (exited === null || exited >= window.fromMs))
          .map(([id, , , entered, exited]) => ({ id, enteredAt: entered, exitedAt: exited }))
          .sort((a, b) => a.enteredAt - b.enteredAt || (a.id < b.id ? -1 : 1));
      for (const fence of FENCES) {
        expect(byFence.get(fence)!.map(({ id, enteredAt, exitedAt }) => ({ id, enteredAt, exitedAt }))).toEqual(expected(fence));
      }
      expect(byFence.get(FENCES[0])).toHaveLength(24);
      expect(byFence.get(FENCES[2])).toEqual([]);
      expect((await reader.visits(ORG, FENCES, window, 5)).map((visit) => visit.id)).toEqual([...mergeVisits([...byFence.values()])].map((visit) => visit.id));
    } finally {
      await reports.onModuleDestroy();
      await dataSource.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
