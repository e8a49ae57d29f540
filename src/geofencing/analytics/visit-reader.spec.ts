import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VisitSpan } from './visit-aggregates';
import { byEnteredAt, mergeVisits } from './visit-reader';

describe('mergeVisits', () => {
  it('merges lists each in report order into the order of sorting them all (entered_at, then id)', () => {
    const list = fc.array(fc.record({ at: fc.integer({ min: 0, max: 50 }), id: fc.string({ minLength: 1, maxLength: 4 }) }), { maxLength: 30 });
    fc.assert(
      fc.property(fc.array(list, { maxLength: 12 }), (drawn) => {
        // Unique ids, as visits have.
        let serial = 0;
        const lists: VisitSpan[][] = drawn.map((rows) =>
          rows
            .map((row) => ({ id: `${row.id}-${serial++}`, fenceId: 'f', deviceId: 'd', userId: null, enteredAt: row.at, exitedAt: null, exitReason: null }))
            .sort(byEnteredAt),
        );
        expect([...mergeVisits(lists)]).toEqual(lists.flat().sort(byEnteredAt));
      }),
      { numRuns: 300 },
    );
  });
});
