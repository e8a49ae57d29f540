import { Injectable } from '@nestjs/common';
import { GeofenceRules } from '../engine/rules';
import type { PinnedRulesWrite } from '../events/geofence-evaluator.service';
import { GeofenceRuleSet } from './geofence-rule-set.entity';
import { GeofencingSettings } from './geofencing-settings.entity';

/**
 * The writes of a fence's own rules and of an organization's settings. Each takes a
 * {@link PinnedRulesWrite}, which only `GeofenceEvaluator.changeRules` gives, after it has pinned
 * the pairs the change affects: a write that skipped the pinning does not compile.
 */
@Injectable()
export class GeofenceRulesRepository {
  async saveFenceRules(
    { manager }: PinnedRulesWrite,
    existing: GeofenceRuleSet | null,
    fence: { id: string; organizationId: string },
    rules: Partial<GeofenceRules>,
    now: Date,
  ): Promise<void> {
    if (existing) await manager.update(GeofenceRuleSet, { geofenceId: fence.id }, { rules, version: existing.version + 1, updatedAt: now });
    else await manager.insert(GeofenceRuleSet, { geofenceId: fence.id, organizationId: fence.organizationId, rules, version: 1, createdAt: now, updatedAt: now });
  }

  /** Whether the fence had rules of its own. */
  async dropFenceRules({ manager }: PinnedRulesWrite, geofenceId: string): Promise<boolean> {
    const { affected } = await manager.delete(GeofenceRuleSet, { geofenceId });
    return Boolean(affected);
  }

  async saveSettings({ manager }: PinnedRulesWrite, existing: GeofencingSettings | null, organizationId: string, rules: Partial<GeofenceRules>, now: Date): Promise<void> {
    if (existing) await manager.update(GeofencingSettings, { organizationId }, { rules, version: existing.version + 1, updatedAt: now });
    else await manager.insert(GeofencingSettings, { organizationId, rules, version: 1, createdAt: now, updatedAt: now });
  }
}
