import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LiveFence } from './batch';
import { decodePair, encodeForm, holds, isPinned, lastFixOf, NewestFix, PairText, storedForm } from './pair-codec';
import { DEFAULT_RULES } from './rules';
import { VisitState } from './visit-state';

const FENCE: LiveFence = { id: 'f', name: 'F', code: 'F', buildingId: 1, floorId: 1, rules: DEFAULT_RULES };
const DISTANCE = -3;

const newestArb: fc.Arbitrary<NewestFix> = fc.record({
  time: fc.integer({ min: 1, max: 10 }),
  floorId: fc.constant(1),
  lat: fc.constantFrom(42.1, 42.2),
  lng: fc.constantFrom(-8.1, -8.2),
  accuracy: fc.constantFrom(null, 2, 30),
  userId: fc.constantFrom(null, 'u1', 'u2'),
});

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null });

/** A state whose last fix is either what `newest` gives the fence or something else. */
const stateArb = (newest: NewestFix) =>
  fc
    .record({
      phase: fc.constantFrom('outside', 'pending_enter', 'inside', 'pending_exit'),
      pendingSince: maybe(fc.integer({ min: 0, max: 9 })),
      visitId: maybe(fc.constantFrom('v1', 'v2')),
      enteredAt: maybe(fc.integer({ min: 0, max: 9 })),
      dwellFired: fc.boolean(),
      lastExitAt: maybe(fc.integer({ min: 0, max: 9 })),
      decidedUntil: maybe(fc.integer({ min: 0, max: 9 })),
      armed: fc.boolean(),
      follows: fc.boolean(),
      ownTime: fc.integer({ min: 0, max: 10 }),
    })
    .map(({ follows, ownTime, ...settled }): VisitState => {
      const own = follows ? lastFixOf(newest, FENCE, DISTANCE) : { ...lastFixOf(newest, FENCE, DISTANCE), lastFixAt: ownTime, lastOverlap: 0.5 };
      return { ...settled, ...own } as VisitState;
    });

const pairArb = newestArb.chain((newest) => fc.tuple(fc.constant(newest), stateArb(newest), fc.constantFrom<string | null>(null, 'u1', 'u2')));

describe('pair codec', () => {
  it('a stored state reads back as written, whether it follows the newest fix or is pinned', () => {
    fc.assert(
      fc.property(pairArb, ([newest, state, userId]) => {
        const derived = lastFixOf(newest, FENCE, DISTANCE);
        const { text } = encodeForm(storedForm(state, userId, newest, derived));
        const back = decodePair({ text }, newest, () => derived);
        expect(back.state).toEqual(state);
        // A pinned state keeps its own user; one that follows takes the newest fix's (the same).
        expect(back.userId).toEqual(userId);
        expect(isPinned({ text })).toBe(!(userId === newest.userId && state.lastFixAt === derived.lastFixAt && state.lastOverlap === derived.lastOverlap));
      }),
    );
  });

  it('a row holds a form exactly when the texts are the same (no text is built to find out)', () => {
    fc.assert(
      fc.property(pairArb, pairArb, ([newest, a, userA], [, b, userB]) => {
        const derived = lastFixOf(newest, FENCE, DISTANCE);
        const formA = storedForm(a, userA, newest, derived);
        const formB = storedForm(b, userB, newest, derived);
        const row = { text: encodeForm(formA).text };
        expect(holds(row, formB)).toBe(JSON.stringify(formA) === JSON.stringify(formB));
        expect(holds(row, formA)).toBe(true);
      }),
    );
  });

  it('a row read from text is parsed once, and a written form is kept as its parse', () => {
    const newest: NewestFix = { time: 5, floorId: 1, lat: 42.1, lng: -8.1, accuracy: 2, userId: 'u1' };
    const derived = lastFixOf(newest, FENCE, DISTANCE);
    const state = { phase: 'inside', pendingSince: null, visitId: 'v1', enteredAt: 4, dwellFired: false, lastExitAt: null, decidedUntil: 5, armed: true, ...derived } as VisitState;
    const written = encodeForm(storedForm(state, 'u1', newest, derived));
    expect(written.text).toBe(JSON.stringify(written.parsed));
    const row: PairText = { text: written.text };
    decodePair(row, newest, () => derived);
    const parsed = row.parsed;
    expect(parsed).toEqual(written.parsed);
    decodePair(row, newest, () => derived);
    expect(row.parsed).toBe(parsed);
  });
});
