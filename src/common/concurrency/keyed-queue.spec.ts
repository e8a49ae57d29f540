import { describe, expect, it } from 'vitest';
import { KeyedQueue } from './keyed-queue';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe('KeyedQueue', () => {
  it('runs work sharing a key one after another, in arrival order', async () => {
    const turns = new KeyedQueue();
    const log: string[] = [];
    const first = gate();
    const a = turns.run(['d1', 'd2'], async () => {
      log.push('a start');
      await first.opened;
      log.push('a end');
    });
    const b = turns.run(['d2', 'd3'], async () => {
      log.push('b');
    });
    const c = turns.run(['d3'], async () => {
      log.push('c');
    });
    await tick();
    expect(log).toEqual(['a start']);
    first.open();
    await Promise.all([a, b, c]);
    expect(log).toEqual(['a start', 'a end', 'b', 'c']);
    expect(turns.size).toBe(0);
  });

  it('runs work with disjoint keys at once', async () => {
    const turns = new KeyedQueue();
    const held = gate();
    let running = 0;
    let most = 0;
    const piece = (keys: string[]) =>
      turns.run(keys, async () => {
        running += 1;
        most = Math.max(most, running);
        await held.opened;
        running -= 1;
      });
    const all = Promise.all([piece(['a']), piece(['b']), piece(['c', 'd'])]);
    await tick();
    expect(running).toBe(3);
    held.open();
    await all;
    expect(most).toBe(3);
  });

  it('a failing piece passes its error on and releases its keys', async () => {
    const turns = new KeyedQueue();
    await expect(turns.run(['k'], async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(turns.run(['k'], async () => 'next')).resolves.toBe('next');
    expect(turns.size).toBe(0);
  });

  it('a key repeated within one piece does not make it wait for itself', async () => {
    const turns = new KeyedQueue();
    await expect(turns.run(['k', 'k', 'k'], async () => 1)).resolves.toBe(1);
  });
});
