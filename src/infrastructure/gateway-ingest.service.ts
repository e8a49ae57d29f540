import { Inject, Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { canSeeBuilding } from '../access/building-scope';
import { Principal } from '../access/principal';
import { Building } from '../cartography/buildings/building.entity';
import { Floor } from '../cartography/floors/floor.entity';
import { ApiError } from '../common/errors/api-error';
import { appConfig, AppConfig } from '../config/app.config';
import { TransactionRunner } from '../database/transactions';
import { DeviceTagsRepository } from '../positions/device-tags.repository';
import { TagObservation, TagObservationsRepository } from '../positions/tag-observations.repository';
import { DEFAULT_LIMITS, gatewayTopic, normaliseHardwareId, parseGatewayMessage } from './gateway-formats';
import { Gateway } from './gateway.entity';
import { GatewayHealthRepository, GatewayMessageOutcome } from './gateway-health.repository';
import { GATEWAY_SILENT_AFTER_MS } from './gateway.mapper';
import { countSilentGatewaysWith, gatewayMessages, gatewayObservations } from './gateway.metrics';
import { GatewayRateLimiter } from './gateway-rate-limiter';
import { GatewayIngestResponseDto } from './gateways.dto';

/** The limit a refused message exceeded, by the parsers' reason. */
function limitOf(reason: string): 'message_size' | 'batch_records' | null {
  if (reason.startsWith('payload larger than')) return 'message_size';
  if (/^batch of \d+ .* exceeds the limit/.test(reason)) return 'batch_records';
  return null;
}

/** Who a gateway message comes from: the organization it belongs to, and the buildings it may reach (null: all). */
export interface GatewaySender {
  organizationId: string;
  buildingIds: number[] | null;
}

/** One gateway message as a transport received it: over HTTP the path's hardware id, over MQTT the topic (any organization prefix removed). */
export interface GatewayDelivery {
  hardwareId?: string;
  topic?: string;
  payload: unknown;
}

/** What became of a message, for its transport to answer with (HTTP status, MQTT acknowledgement). */
export type GatewayIngestOutcome =
  | { kind: 'accepted'; result: GatewayIngestResponseDto }
  | { kind: 'unknown_gateway'; hardwareId: string }
  /** A topic that is no gateway's (nothing to count it against), or a message of the family that carries nothing (ESPresense settings). */
  | { kind: 'ignored'; reason: string }
  | { kind: 'rate_limited'; retryAfterMs: number }
  | { kind: 'not_understood'; format: string; reason: string; limit: 'message_size' | 'batch_records' | null };

/**
 * Gateway messages, from every transport (issue 39): the gateway found by the path's or topic's hardware id in the
 * sender's organization, its per-instance token bucket taken, the body read in its format, the observations of the
 * organization's tags stored (a redelivery stores nothing twice) together with the gateway's health, in one
 * transaction that commits before `take` resolves, so a transport answers (2xx, PUBACK) only once they are durable;
 * unknown advertisers only counted; a message not understood, or refused by a limit, counted on the health with
 * its reason.
 */
@Injectable()
export class GatewayIngestService implements OnModuleInit, OnModuleDestroy {
  private readonly rate: GatewayRateLimiter;
  private sweeper: NodeJS.Timeout | null = null;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
    private readonly health: GatewayHealthRepository,
    private readonly tags: DeviceTagsRepository,
    private readonly observations: TagObservationsRepository,
    @Inject(appConfig.KEY) private readonly config: AppConfig,
  ) {
    this.rate = new GatewayRateLimiter(config.mqtt.messagesPerSecond, config.mqtt.messageBurst);
  }

  onModuleInit(): void {
    countSilentGatewaysWith(() => this.health.countSilent(this.dataSource.manager, Date.now() - GATEWAY_SILENT_AFTER_MS));
    this.sweeper = setInterval(() => this.rate.sweep(Date.now()), 60_000);
    this.sweeper.unref();
  }

  onModuleDestroy(): void {
    countSilentGatewaysWith(null);
    if (this.sweeper) clearInterval(this.sweeper);
  }

  /** The organization's gateway of this hardware id, on a live floor of a live building the sender may reach. */
  async findLive(sender: GatewaySender, hardwareId: string): Promise<Gateway | null> {
    const row = await this.dataSource.manager
      .createQueryBuilder(Gateway, 'gateway')
      .innerJoin(Floor, 'floor', 'floor.id = gateway.floorId AND floor.deletedAt IS NULL')
      .innerJoin(Building, 'building', 'building.id = gateway.buildingId AND building.deletedAt IS NULL')
      .where('gateway.organizationId = :organizationId AND gateway.hardwareId = :hardwareId', { organizationId: sender.organizationId, hardwareId })
      .getOne();
    return row && canSeeBuilding(sender, row.buildingId) ? row : null;
  }

  /** The HTTP route's answer: the stored counts, or the contract's errors (404, 413, 422, 429). */
  async ingest(principal: Principal, hardwareId: string, body: unknown): Promise<GatewayIngestResponseDto> {
    const outcome = await this.take(principal, { hardwareId, payload: body ?? '' });
    switch (outcome.kind) {
      case 'accepted':
        return outcome.result;
      case 'unknown_gateway':
        throw ApiError.notFound('Gateway', outcome.hardwareId);
      case 'rate_limited':
        throw ApiError.tooManyRequests(outcome.retryAfterMs / 1000);
      case 'ignored':
        throw ApiError.validation('The gateway message is not understood', [{ message: outcome.reason, code: 'invalid', fields: 'body' }]);
      case 'not_understood':
        if (outcome.limit === 'message_size') throw ApiError.payloadTooLarge(this.config.mqtt.maxMessageBytes);
        throw ApiError.validation(`The ${outcome.format} message is not understood`, [{ message: outcome.reason, code: 'invalid', fields: 'body' }]);
    }
  }

  /** One message of any transport, taken: resolves once what it carried is durable (or counted as refused). Throws only when the database does. */
  async take(sender: GatewaySender, delivery: GatewayDelivery): Promise<GatewayIngestOutcome> {
    const named = this.namedGateway(delivery);
    if (typeof named !== 'string') {
      gatewayMessages.inc({ outcome: named.kind === 'unknown_gateway' ? 'unknown_gateway' : 'not_understood' });
      return named;
    }
    const gateway = await this.findLive(sender, named);
    if (!gateway) {
      gatewayMessages.inc({ outcome: 'unknown_gateway' });
      return { kind: 'unknown_gateway', hardwareId: named };
    }
    const now = Date.now();
    const token = this.rate.take(gateway.id, now);
    if (!token.allowed) {
      gatewayMessages.inc({ outcome: 'rate_limited' });
      if (token.note) await this.health.noteLimit(this.dataSource.manager, gateway.id, gateway.organizationId, 'message_rate', now);
      return { kind: 'rate_limited', retryAfterMs: token.retryAfterMs };
    }
    const limits = { ...DEFAULT_LIMITS, maxBytes: this.config.mqtt.maxMessageBytes };
    const parsed = parseGatewayMessage({ format: gateway.format, topic: delivery.topic, hardwareId: delivery.hardwareId, payload: delivery.payload, now, limits });
    if (!parsed.ok && parsed.ignored) {
      gatewayMessages.inc({ outcome: 'accepted' });
      return { kind: 'ignored', reason: parsed.reason };
    }
    if (!parsed.ok) {
      const limit = limitOf(parsed.reason);
      await this.transactions.run((manager) =>
        this.health.record(manager, gateway.id, gateway.organizationId, { ...nothing(now), notUnderstood: true, reason: parsed.reason, limit }),
      );
      gatewayMessages.inc({ outcome: limit === 'message_size' ? 'too_large' : 'not_understood' });
      return { kind: 'not_understood', format: gateway.format, reason: parsed.reason, limit };
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
    return {
      kind: 'accepted',
      result: { stored: result.stored, duplicates: result.duplicates, unknown: result.unknown, rejected: result.recordsNotUnderstood, last_reason: result.reason },
    };
  }

  /** Notes a limit on the gateway of this hardware id in the organization, when there is one (a refused connection names its gateway by client id or username). */
  async noteLimit(sender: GatewaySender, hardwareId: string | null, limit: 'connections'): Promise<void> {
    const normalised = hardwareId === null ? null : normaliseHardwareId(hardwareId);
    const gateway = normalised === null ? null : await this.findLive(sender, normalised);
    if (gateway) await this.health.noteLimit(this.dataSource.manager, gateway.id, gateway.organizationId, limit, Date.now());
  }

  /** The normalised hardware id a delivery names (path or topic), or why it names none. */
  private namedGateway(delivery: GatewayDelivery): string | GatewayIngestOutcome {
    if (delivery.topic !== undefined) {
      const topic = gatewayTopic(delivery.topic);
      if (topic === null) return { kind: 'ignored', reason: `topic ${JSON.stringify(delivery.topic.slice(0, 80))} is not a gateway topic` };
      if (topic.receiver === null) return { kind: 'ignored', reason: `topic ${JSON.stringify(delivery.topic.slice(0, 80))} names no gateway` };
      return topic.receiver;
    }
    const normalised = delivery.hardwareId === undefined ? null : normaliseHardwareId(delivery.hardwareId);
    return normalised ?? { kind: 'unknown_gateway', hardwareId: (delivery.hardwareId ?? '').slice(0, 128) };
  }
}

const nothing = (now: number): GatewayMessageOutcome => ({ now, notUnderstood: false, recordsNotUnderstood: 0, stored: 0, duplicates: 0, unknown: 0, reason: null, limit: null });

function countObservations(outcome: GatewayMessageOutcome): void {
  if (outcome.stored > 0) gatewayObservations.inc({ outcome: 'stored' }, outcome.stored);
  if (outcome.duplicates > 0) gatewayObservations.inc({ outcome: 'duplicate' }, outcome.duplicates);
  if (outcome.unknown > 0) gatewayObservations.inc({ outcome: 'unknown_tag' }, outcome.unknown);
  if (outcome.recordsNotUnderstood > 0) gatewayObservations.inc({ outcome: 'not_understood' }, outcome.recordsNotUnderstood);
}
