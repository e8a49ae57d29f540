import 'reflect-metadata';
import { describe, expect, it } from 'vitest';
import { DevicesRepository } from './devices.repository';

/** Every read of the devices table settles it first: the fake records the order of calls. */
describe('DevicesRepository', () => {
  function fixture() {
    const calls: string[] = [];
    const store = { flushNewest: async (manager?: unknown) => void calls.push(manager ? 'flush(tx)' : 'flush') };
    const builder = { skip: () => builder, take: () => builder, getManyAndCount: async () => (calls.push('read'), [[], 0]) };
    const manager = { findOne: async () => (calls.push('find'), null), connection: { options: { type: 'sqlite' } } };
    const table = { createQueryBuilder: () => builder, manager };
    return { calls, repository: new DevicesRepository(table as never, store as never), manager };
  }

  it('settles the table before a page, and before a find (in the caller’s transaction when given)', async () => {
    const { calls, repository, manager } = fixture();
    await repository.page((query) => query, 0, 10);
    await repository.find('org', 'device', null);
    await repository.find('org', 'device', null, manager as never);
    expect(calls).toEqual(['flush', 'read', 'flush', 'find', 'flush(tx)', 'find']);
  });
});
