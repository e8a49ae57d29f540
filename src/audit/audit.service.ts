import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { EntityManager, Repository } from 'typeorm';
import { Principal } from '../access/principal';
import { ApiError } from '../common/errors/api-error';
import { Page, pageWindow, toPage } from '../common/pagination/pagination';
import { formatTimestamp } from '../common/time/timestamps';
import { AuditEvent } from './audit-event.entity';
import { AuditEventResponseDto, ListAuditQuery } from './audit.dto';

export type AuditTarget = 'user' | 'group' | 'apikey' | 'webhook';

export function toAuditEventResponse(event: AuditEvent): AuditEventResponseDto {
  return {
    id: event.id,
    actor_id: event.actorId,
    action: event.action,
    target_type: event.targetType,
    target_id: event.targetId,
    ip: event.ip,
    created_at: formatTimestamp(event.createdAt),
  };
}

@Injectable()
export class AuditService {
  constructor(@InjectRepository(AuditEvent) private readonly events: Repository<AuditEvent>) {}

  /** Records a change inside the transaction that makes it: both commit or neither. */
  async record(manager: EntityManager, actor: Principal, action: `${AuditTarget}.${string}`, targetId: string): Promise<void> {
    await manager.insert(AuditEvent, {
      id: randomUUID(),
      organizationId: actor.organizationId,
      actorId: actor.userId,
      action,
      targetType: action.slice(0, action.indexOf('.')),
      targetId,
      ip: actor.ip ?? null,
      createdAt: new Date(),
    });
  }

  async list(principal: Principal, query: ListAuditQuery): Promise<Page<AuditEventResponseDto>> {
    const window = pageWindow(query);
    const from = query.from ? new Date(query.from) : undefined;
    const to = query.to ? new Date(query.to) : undefined;
    if (from && to && from > to) throw ApiError.badRequest('from must not be after to');
    const builder = this.events.createQueryBuilder('e').where('e.organizationId = :organizationId', { organizationId: principal.organizationId });
    if (from) builder.andWhere('e.createdAt >= :from', { from });
    if (to) builder.andWhere('e.createdAt <= :to', { to });
    if (query.actor_id) builder.andWhere('e.actorId = :actorId', { actorId: query.actor_id.toLowerCase() });
    if (query.action) builder.andWhere('e.action = :action', { action: query.action });
    const [rows, total] = await builder.orderBy('e.createdAt', 'DESC').addOrderBy('e.id', 'DESC').skip(window.offset).take(window.size).getManyAndCount();
    return toPage(rows.map(toAuditEventResponse), total, window);
  }
}
