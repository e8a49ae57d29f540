import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { canSeeBuilding } from '../../access/building-scope';
import { Principal } from '../../access/principal';
import { BuildingRevisions } from '../../cartography/buildings/building-revisions';
import { lockOptions } from '../../database/row-locks';
import { ApiError } from '../../common/errors/api-error';
import { TransactionRunner } from '../../database/transactions';
import { Geofence } from '../../cartography/geofences/geofence.entity';
import { Organization } from '../../organizations/organization.entity';
import { GeofenceRules, overridesAfter, pickRulePatch, RulePatch, validateRulePatch } from '../engine/rules';
import { GeofenceEvaluator } from '../events/geofence-evaluator.service';
import { GeofenceRuleSet } from './geofence-rule-set.entity';
import { GeofenceRulesRepository } from './geofence-rules.repository';
import { GeofencingSettings } from './geofencing-settings.entity';
import { toGeofenceRulesResponse, toGeofencingSettingsResponse } from './rules.mapper';
import { GeofenceRulesResponseDto, GeofencingSettingsResponseDto } from './rules.dto';

/**
 * Rules per fence and defaults per organization (contract 7.2). Both store only the fields
 * set; a fence's effective rules are its own fields over its organization's over the
 * contract's defaults. Every write bumps the revisions of the buildings it affects, so the
 * per-floor indexes (which carry each fence's accuracy factor) are rebuilt on every instance.
 */
@Injectable()
export class GeofencingRulesService {
  constructor(
    @InjectRepository(GeofencingSettings) private readonly settings: Repository<GeofencingSettings>,
    private readonly transactions: TransactionRunner,
    private readonly revisions: BuildingRevisions,
    private readonly evaluator: GeofenceEvaluator,
    private readonly rules: GeofenceRulesRepository,
  ) {}

  async getFenceRules(principal: Principal, geofenceId: string): Promise<GeofenceRulesResponseDto> {
    const manager = this.settings.manager;
    const fence = await this.visibleFence(principal, geofenceId, manager);
    const [own, organization] = await Promise.all([this.ownRules(manager, fence.id), this.organizationRules(manager, principal.organizationId)]);
    return toGeofenceRulesResponse(fence.id, own, organization);
  }

  /** PUT and PATCH alike: the fields sent replace the fence's own; null returns one to the organization's value. */
  async updateFenceRules(principal: Principal, geofenceId: string, body: unknown): Promise<GeofenceRulesResponseDto> {
    const patch = checkedPatch(body);
    return this.transactions.run(async (manager) => {
      const fence = await this.visibleFence(principal, geofenceId, manager, true);
      if (fence.deleted) throw ApiError.conflict('The geofence is deleted');
      const existing = await manager.findOne(GeofenceRuleSet, { where: { geofenceId: fence.id } });
      const rules = overridesAfter(existing?.rules ?? {}, patch);
      const now = new Date();
      return this.evaluator.changeRules(manager, principal.organizationId, [fence.id], async (pinned) => {
        await this.rules.saveFenceRules(pinned, existing, { id: fence.id, organizationId: principal.organizationId }, rules, now);
        await this.revisions.bump(manager, [fence.buildingId]);
        const result = toGeofenceRulesResponse(fence.id, rules, await this.organizationRules(manager, principal.organizationId));
        // Turned off: its occupants leave now (contract 7.2's fence_changed), not at their stale timeout.
        return { result, changed: true, enabledMayChange: patch.enabled !== undefined, at: now.getTime() };
      });
    });
  }

  /** Drops the fence's own rules: it follows its organization's settings again. */
  async resetFenceRules(principal: Principal, geofenceId: string): Promise<void> {
    await this.transactions.run(async (manager) => {
      const fence = await this.visibleFence(principal, geofenceId, manager, true);
      // Dropping them changes them too: a deleted fence's rules stay as they were, readable.
      if (fence.deleted) throw ApiError.conflict('The geofence is deleted');
      const now = Date.now();
      await this.evaluator.changeRules(manager, principal.organizationId, [fence.id], async (pinned) => {
        const changed = await this.rules.dropFenceRules(pinned, fence.id);
        if (changed) await this.revisions.bump(manager, [fence.buildingId]);
        // The organization's settings may say disabled where the fence said enabled.
        return { result: undefined, changed, enabledMayChange: true, at: now };
      });
    });
  }

  async getSettings(principal: Principal): Promise<GeofencingSettingsResponseDto> {
    return toGeofencingSettingsResponse(principal.organizationId, await this.organizationRules(this.settings.manager, principal.organizationId));
  }

  async updateSettings(principal: Principal, body: unknown): Promise<GeofencingSettingsResponseDto> {
    // The defaults reach every building of the organization, including ones the caller cannot see.
    if (principal.buildingIds !== null) throw ApiError.forbidden('Callers restricted to some buildings cannot change the organization’s geofencing settings');
    const patch = checkedPatch(body);
    return this.transactions.run(async (manager) => {
      // Concurrent PATCHes of different fields take turns instead of losing one another.
      await manager.findOne(Organization, { where: { id: principal.organizationId }, ...lockOptions(manager, 'update') });
      const existing = await manager.findOne(GeofencingSettings, { where: { organizationId: principal.organizationId } });
      const rules = overridesAfter(existing?.rules ?? {}, patch);
      const now = new Date();
      return this.evaluator.changeRules(manager, principal.organizationId, null, async (pinned) => {
        await this.rules.saveSettings(pinned, existing, principal.organizationId, rules, now);
        await this.revisions.bumpForOrganization(manager, principal.organizationId);
        // Every fence that follows the organization's `enabled` and now says false ends its visits.
        return { result: toGeofencingSettingsResponse(principal.organizationId, rules), changed: true, enabledMayChange: patch.enabled !== undefined, at: now.getTime() };
      });
    });
  }

  private async ownRules(manager: EntityManager, geofenceId: string): Promise<Partial<GeofenceRules>> {
    return (await manager.findOne(GeofenceRuleSet, { where: { geofenceId } }))?.rules ?? {};
  }

  private async organizationRules(manager: EntityManager, organizationId: string): Promise<Partial<GeofenceRules>> {
    return (await manager.findOne(GeofencingSettings, { where: { organizationId } }))?.rules ?? {};
  }

  /** Deleted fences keep readable rules, like the fence itself; another organization's fence is not found. */
  private async visibleFence(principal: Principal, id: string, manager: EntityManager, forUpdate = false): Promise<Geofence> {
    const fence = await manager.findOne(Geofence, {
      where: { id, organizationId: principal.organizationId },
      ...lockOptions(manager, forUpdate ? 'update' : undefined),
    });
    if (!fence || !canSeeBuilding(principal, fence.buildingId)) throw ApiError.notFound('Geofence', id);
    return fence;
  }
}

/** A JSON object whose rule fields are all in range; 422 naming every bad field otherwise. */
function checkedPatch(body: unknown): RulePatch {
  if (body === null || body === undefined || typeof body !== 'object' || Array.isArray(body)) {
    throw ApiError.validation('The request body must be a JSON object', [{ message: 'the body must be a JSON object', code: 'invalid', fields: 'body' }]);
  }
  const errors = validateRulePatch(body as Record<string, unknown>);
  if (errors.length > 0) {
    throw ApiError.validation(
      'The rules are not valid',
      errors.map((error) => ({ message: error.message, code: 'invalid', fields: error.field, value: error.value })),
    );
  }
  return pickRulePatch(body as Record<string, unknown>);
}
