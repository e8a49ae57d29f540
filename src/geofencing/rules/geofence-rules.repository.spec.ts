import 'reflect-metadata';
import { describe, expect, it } from 'vitest';
import type { EntityManager } from 'typeorm';
import { PinnedRulesWrite } from '../events/geofence-evaluator.service';
import { GeofenceRulesRepository } from './geofence-rules.repository';

/**
 * A rules write that skips the pinning cannot be written: the repository's writes take only the
 * PinnedRulesWrite that GeofenceEvaluator.changeRules makes (the @ts-expect-error lines fail the
 * type check the day a bare EntityManager is accepted), and nobody else can make one.
 */
describe('rules writes are pinned writes', () => {
  const manager = { update: async () => undefined, insert: async () => undefined, delete: async () => ({ affected: 1 }) } as unknown as EntityManager;

  it('refuses to make a PinnedRulesWrite outside changeRules', () => {
    expect(() => new PinnedRulesWrite(manager, Symbol('pinned rules write') as never)).toThrow(/changeRules/);
  });

  it('does not take a bare EntityManager', async () => {
    const repository = new GeofenceRulesRepository();
    // @ts-expect-error a rules write needs the pinned write changeRules gives
    await expect(repository.dropFenceRules(manager, 'fence')).rejects.toThrow();
    // @ts-expect-error likewise for the organization's settings
    await expect(repository.saveSettings(manager, null, 'org', {}, new Date())).rejects.toThrow();
  });
});
