import { secretsInForce } from './webhook-signing';
import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { Repository } from 'typeorm';
import { AuditService } from '../../audit/audit.service';
import { Principal } from '../../access/principal';
import { BuildingsService } from '../../cartography/buildings/buildings.service';
import { SecretBox } from '../../common/crypto/secret-box';
import { lockOptions } from '../../database/row-locks';
import { retryOnConcurrentUpdate, updateIfVersion } from '../../common/database/optimistic';
import { ApiError } from '../../common/errors/api-error';
import { Page, PageQuery, pageWindow, toPage } from '../../common/pagination/pagination';
import { webhooksConfig, WebhooksConfig } from '../../config/webhooks.config';
import { TransactionRunner } from '../../database/transactions';
import { GeofencesService } from '../../cartography/geofences/geofences.service';
import { Organization } from '../../organizations/organization.entity';
import { WEBHOOK_EVENT_TYPES } from './event-types';
import { parseWebhookUrl, resolveWebhookTarget, WebhookTargetRefused } from './target-guard';
import { WebhookEndpoint } from './webhook-endpoint.entity';
import { toWebhookResponse } from './webhook-endpoint.mapper';
import { generateWebhookSecret } from './webhook-signing';
import { CreateWebhookDto, UpdateWebhookDto, WebhookResponseDto, WebhookWithSecretDto } from './webhooks.dto';

export const WEBHOOK_SECRET_BOX = Symbol('WEBHOOK_SECRET_BOX');

/**
 * Webhooks are the organization's: an endpoint receives the events of every building its
 * filters allow (all of them when unfiltered), and the list shows where they all go. A user
 * restricted to some buildings would reach the others through them, so, as for the
 * organization's geofencing settings, such a caller may not manage them at all.
 */
function assertOrganizationWide(principal: Principal): void {
  if (principal.buildingIds !== null) throw ApiError.forbidden('Callers restricted to some buildings cannot manage the organization’s webhooks');
}

/** How long a rotated-out secret keeps signing (contract 7.5), so receivers can switch without losing deliveries. */
export const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;

@Injectable()
export class WebhookEndpointsService {
  constructor(
    @InjectRepository(WebhookEndpoint) private readonly endpoints: Repository<WebhookEndpoint>,
    @Inject(WEBHOOK_SECRET_BOX) private readonly box: SecretBox,
    @Inject(webhooksConfig.KEY) private readonly config: WebhooksConfig,
    private readonly buildings: BuildingsService,
    private readonly geofences: GeofencesService,
    private readonly transactions: TransactionRunner,
    private readonly audit: AuditService,
  ) {}

  async list(principal: Principal, query: PageQuery): Promise<Page<WebhookResponseDto>> {
    assertOrganizationWide(principal);
    const window = pageWindow(query);
    const [rows, total] = await this.endpoints.findAndCount({
      where: { organizationId: principal.organizationId },
      order: { createdAt: 'ASC', id: 'ASC' },
      skip: window.offset,
      take: window.size,
    });
    return toPage(
      rows.map((r) => toWebhookResponse(r)),
      total,
      window,
    );
  }

  async get(principal: Principal, id: string): Promise<WebhookResponseDto> {
    assertOrganizationWide(principal);
    return toWebhookResponse(await this.findOwned(principal, id));
  }

  async create(principal: Principal, dto: CreateWebhookDto): Promise<WebhookWithSecretDto> {
    assertOrganizationWide(principal);
    const url = await this.checkedUrl(dto.url);
    await this.checkFilters(principal, dto);
    const now = new Date();
    const id = randomUUID();
    const secret = generateWebhookSecret();
    const endpoint: WebhookEndpoint = {
      id,
      organizationId: principal.organizationId,
      url,
      description: dto.description ?? '',
      eventTypes: dto.event_types ?? [...WEBHOOK_EVENT_TYPES],
      filterBuildingIds: dto.filters?.building_ids ?? [],
      filterGeofenceIds: dto.filters?.geofence_ids ?? [],
      enabled: dto.enabled ?? true,
      disabledReason: null,
      secretSealed: this.box.seal(secret, id),
      previousSecretSealed: null,
      previousSecretExpiresAt: null,
      version: 1,
      createdAt: now,
      updatedAt: now,
    };
    await this.transactions.run(async (manager) => {
      // Counted under the organization's row lock (SQLite: transactions take turns), so concurrent creates cannot all pass the limit.
      await manager.findOne(Organization, { where: { id: principal.organizationId }, ...lockOptions(manager, 'update') });
      const count = await manager.count(WebhookEndpoint, { where: { organizationId: principal.organizationId } });
      if (count >= this.config.maxEndpointsPerOrganization) {
        throw ApiError.validation(`An organization has at most ${this.config.maxEndpointsPerOrganization} webhooks`, [
          { message: 'too many webhooks', code: 'limit', fields: 'url' },
        ]);
      }
      await manager.insert(WebhookEndpoint, endpoint);
      await this.audit.record(manager, principal, 'webhook.create', id);
    });
    return { ...toWebhookResponse(endpoint, now), secret };
  }

  async update(principal: Principal, id: string, dto: UpdateWebhookDto): Promise<WebhookResponseDto> {
    assertOrganizationWide(principal);
    const url = dto.url === undefined ? undefined : await this.checkedUrl(dto.url);
    await this.checkFilters(principal, dto);
    return retryOnConcurrentUpdate(() =>
      this.transactions.run(async (manager) => {
        const endpoint = await this.findOwned(principal, id, manager.getRepository(WebhookEndpoint));
        const changes: Partial<WebhookEndpoint> = {
          ...(url !== undefined && { url }),
          ...(dto.description !== undefined && { description: dto.description }),
          ...(dto.event_types !== undefined && { eventTypes: dto.event_types }),
          ...(dto.filters?.building_ids !== undefined && { filterBuildingIds: dto.filters.building_ids }),
          ...(dto.filters?.geofence_ids !== undefined && { filterGeofenceIds: dto.filters.geofence_ids }),
          // Enabling again clears the reason the server had disabled it for (a 410 from the receiver).
          ...(dto.enabled !== undefined && { enabled: dto.enabled, disabledReason: null }),
          updatedAt: new Date(),
        };
        if (!(await updateIfVersion(manager, WebhookEndpoint, endpoint, changes))) return false;
        await this.audit.record(manager, principal, 'webhook.update', id);
        return toWebhookResponse({ ...endpoint, ...changes, version: endpoint.version + 1 });
      }),
    );
  }

  async remove(principal: Principal, id: string): Promise<void> {
    assertOrganizationWide(principal);
    await this.transactions.run(async (manager) => {
      const endpoint = await this.findOwned(principal, id, manager.getRepository(WebhookEndpoint));
      await manager.delete(WebhookEndpoint, { id: endpoint.id });
      await this.audit.record(manager, principal, 'webhook.delete', id);
    });
  }

  /** A new secret, shown once; the previous one keeps signing for 24 h beside it. */
  async rotateSecret(principal: Principal, id: string): Promise<WebhookWithSecretDto> {
    assertOrganizationWide(principal);
    const secret = generateWebhookSecret();
    return retryOnConcurrentUpdate(() =>
      this.transactions.run(async (manager) => {
        const endpoint = await this.findOwned(principal, id, manager.getRepository(WebhookEndpoint));
        const now = new Date();
        const changes: Partial<WebhookEndpoint> = {
          secretSealed: this.box.seal(secret, id),
          previousSecretSealed: endpoint.secretSealed,
          previousSecretExpiresAt: new Date(now.getTime() + ROTATION_OVERLAP_MS),
          updatedAt: now,
        };
        if (!(await updateIfVersion(manager, WebhookEndpoint, endpoint, changes))) return false;
        await this.audit.record(manager, principal, 'webhook.rotate_secret', id);
        return { ...toWebhookResponse({ ...endpoint, ...changes }, now), secret };
      }),
    );
  }

  /** The secrets that sign now, opened: the current one first (the delivery worker's view). */
  secretsOf(endpoint: WebhookEndpoint, now = new Date()): string[] {
    const open = (sealed: string | null) => (sealed ? this.box.open(sealed, endpoint.id) : null);
    const current = open(endpoint.secretSealed);
    // The previous secret is opened only while it still signs.
    const overlap = secretsInForce({ current: '', previous: endpoint.previousSecretSealed, previousExpiresAt: endpoint.previousSecretExpiresAt }, now).length > 1;
    return [current, overlap ? open(endpoint.previousSecretSealed) : null].filter((secret): secret is string => !!secret);
  }

  /** The caller's endpoint, for the routes under /webhooks/{id}. */
  async findForCaller(principal: Principal, id: string): Promise<WebhookEndpoint> {
    return this.findOwned(principal, id);
  }

  private async findOwned(principal: Principal, id: string, repository: Repository<WebhookEndpoint> = this.endpoints): Promise<WebhookEndpoint> {
    const endpoint = await repository.findOne({ where: { id, organizationId: principal.organizationId } });
    if (!endpoint) throw ApiError.notFound('Webhook', id);
    return endpoint;
  }

  /** The URL's form and where it resolves now; the delivery worker checks the address again at every attempt. */
  private async checkedUrl(text: string): Promise<string> {
    try {
      const url = parseWebhookUrl(text);
      await resolveWebhookTarget(url, { blockPrivateNetworks: this.config.blockPrivateNetworks });
      return url.toString();
    } catch (e) {
      if (e instanceof WebhookTargetRefused) {
        throw ApiError.validation('The webhook URL is refused', [{ message: e.message, code: e.reason, fields: 'url', value: text }]);
      }
      throw e;
    }
  }

  private async checkFilters(principal: Principal, dto: UpdateWebhookDto): Promise<void> {
    if (dto.filters?.building_ids) await this.buildings.assertAllReferenced(principal, dto.filters.building_ids.map(Number), 'filters.building_ids');
    if (dto.filters?.geofence_ids) await this.geofences.assertAllReferenced(principal, dto.filters.geofence_ids, 'filters.geofence_ids');
  }
}
