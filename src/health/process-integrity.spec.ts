import { afterEach, describe, expect, it } from 'vitest';
import { processIntegrityProblems } from './process-integrity';

describe('processIntegrityProblems', () => {
  afterEach(() => {
    delete (Object.prototype as Record<string, unknown>)['u.id'];
    delete (Array.prototype as unknown as Record<string, unknown>).polluted;
  });

  it('finds nothing in a sound process', () => {
    expect(processIntegrityProblems()).toEqual([]);
  });

  it('notices a property written onto Object.prototype (what orderBy did with sort=__proto__)', () => {
    (Object.prototype as Record<string, unknown>)['u.id'] = 'ASC';
    const problems = processIntegrityProblems();
    expect(problems).toContain('Object.prototype has unexpected properties: u.id');
    expect(problems).toContain('an empty object inherits the enumerable property u.id');
  });

  it('notices a property written onto Array.prototype', () => {
    Object.defineProperty(Array.prototype, 'polluted', { value: 1, configurable: true, writable: true });
    expect(processIntegrityProblems()).toEqual(['Array.prototype has unexpected properties: polluted']);
  });

  it('is sound again once the pollution is gone', () => {
    expect(processIntegrityProblems()).toEqual([]);
  });
});
