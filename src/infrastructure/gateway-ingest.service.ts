import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { canSeeBuilding } from '../access/building-scope';
import { Principal } from '../access/principal';
import { Building } from '../cartography/buildings/building.entity';
import { Floor } from '../cartography/floors/floor.entity';
import { ApiError } from '../common/errors/api-error';
import { TransactionRunner } from '../database/transactions';
import { DeviceTagsRepository } from '../positions/device-tags.repository';
import { TagObservation, TagObservationsRepository } from '../positions/tag-observations.repository';
import { DEFAULT_LIMITS, normaliseHardwareId, parseGatewayMessage } from './gateway-formats';
import { Gateway } from './gateway.entity';
import { GatewayHealthRepository, GatewayMessageOutcome } from './gateway-health.repository';
import { GATEWAY_SILENT_AFTER_MS } from './gateway.mapper';
import { countSilentGatewaysWith, gatewayMessages, gatewayObservations } from './gateway.metrics';
import { GatewayIngestResponseDto } from './gateways.dto';

/** The limit a refused message exceeded, by the parsers' reason. */
function limitOf(reason: string): 'message_size' | 'batch_records' | null {
  if (reason.startsWith('payload larger than')) return 'message_size';
  if (/^batch of \d+ .* exceeds the limit/.test(reason)) return 'batch_records';
  return null;
}

/**
 * Gateway messages over HTTP (issue 39): the gateway found by the path's hardware id in the key's
 * organization, the body read in its format, the observations of the organization's tags stored
 * (a redelivery stores nothing twice) together with the gateway's health, in one transaction that
 * commits before the answer; unknown advertisers only counted; a message not understood counted
 * on the health with its reason, and answered 413 or 422.
 */
@Injectable()
export class GatewayIngestService implements OnModuleInit, OnModuleDestroy {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
    private readonly health: GatewayHealthRepository,
    private readonly tags: DeviceTagsRepository,
    private readonly observations: TagObservationsRepository,
  ) {}

  onModuleInit(): void {
    countSilentGatewaysWith(() => this.health.countSilent(this.dataSource.manager, Date.now() - GATEWAY_SILENT_AFTER_MS));
  }

  onModuleDestroy(): void {
    countSilentGatewaysWith(null);
  }

  /** The organization's gateway of this hardware id, on a live floor of a live building the caller may see. */
  private async findLive(principal: Principal, hardwareId: string): Promise<Gateway | null> {
    const row = await this.dataSource.manager
      .createQueryBuilder(Gateway, 'gateway')
      .innerJoin(Floor, 'floor', 'floor.id = gateway.floorId AND floor.deletedAt IS NULL')
      .innerJoin(Building, 'building', 'building.id = gateway.buildingId AND building.deletedAt IS NULL')
      .where('gateway.organizationId = :organizationId AND gateway.hardwareId = :hardwareId', { organizationId: principal.organizationId, hardwareId })
      .getOne();
    return row && canSeeBuilding(principal, row.buildingId) ? row : null;
  }

  async ingest(principal: Principal, hardwareId: string, body: unknown): Promise<GatewayIngestResponseDto> {
    const normalised = normaliseHardwareId(hardwareId);
    const gateway = normalised === null ? null : await this.findLive(principal, normalised);
    if (!gateway) {
      gatewayMessages.inc({ outcome: 'unknown_gateway' });
      throw ApiError.notFound('Gateway', normalised ?? hardwareId.slice(0, 128));
    }
    const now = Date.now();
    const parsed = parseGatewayMessage({ format: gateway.format, hardwareId, payload: body ?? '', now, limits: DEFAULT_LIMITS });
    if (!parsed.ok) {
      const limit = limitOf(parsed.reason);
      await this.transactions.run((manager) =>
        this.health.record(manager, gateway.id, gateway.organizationId, { ...nothing(now), notUnderstood: true, reason: parsed.reason, limit }),
      );
      gatewayMessages.inc({ outcome: limit === 'message_size' ? 'too_large' : 'not_understood' });
      if (limit === 'message_size') throw ApiError.payloadTooLarge(DEFAULT_LIMITS.maxBytes);
      throw ApiError.validation(`The ${gateway.format} message is not understood`, [{ message: parsed.reason, code: 'invalid', fields: 'body' }]);
    }
    const result = await this.transactions.run(async (manager) => {
      const keys = [...new Set(parsed.observations.flatMap((observation) => observation.keys))];
      const devices = await this.tags.devicesOf(manager, gateway.organizationId, keys);
      const rows: TagObservation[] = [];
      let unknown = 0;
      for (const observation of parsed.observations) {
        const key = observation.keys.find((candidate) => devices.has(candidate));
        if (key === undefined) {
          unknown += 1;
          continue;
        }
        rows.push({
          organizationId: gateway.organizationId,
          deviceId: devices.get(key)!,
          gatewayId: gateway.id,
          time: observation.time,
          receivedMs: now,
          rssi: observation.rssi,
          txPower: observation.txPower ?? null,
          raw: observation.raw ?? null,
          dedupKey: observation.dedupKey ?? null,
        });
      }
      const stored = await this.observations.insert(manager, rows);
      const outcome: GatewayMessageOutcome = {
        ...nothing(now),
        recordsNotUnderstood: parsed.rejected,
        stored,
        duplicates: rows.length - stored,
        unknown,
        reason: parsed.lastReason ?? null,
      };
      await this.health.record(manager, gateway.id, gateway.organizationId, outcome);
      return outcome;
    });
    gatewayMessages.inc({ outcome: 'accepted' });
    countObservations(result);
    return { stored: result.stored, duplicates: result.duplicates, unknown: result.unknown, rejected: result.recordsNotUnderstood, last_reason: result.reason };
  }
}

const nothing = (now: number): GatewayMessageOutcome => ({ now, notUnderstood: false, recordsNotUnderstood: 0, stored: 0, duplicates: 0, unknown: 0, reason: null, limit: null });

function countObservations(outcome: GatewayMessageOutcome): void {
  if (outcome.stored > 0) gatewayObservations.inc({ outcome: 'stored' }, outcome.stored);
  if (outcome.duplicates > 0) gatewayObservations.inc({ outcome: 'duplicate' }, outcome.duplicates);
  if (outcome.unknown > 0) gatewayObservations.inc({ outcome: 'unknown_tag' }, outcome.unknown);
  if (outcome.recordsNotUnderstood > 0) gatewayObservations.inc({ outcome: 'not_understood' }, outcome.recordsNotUnderstood);
}
