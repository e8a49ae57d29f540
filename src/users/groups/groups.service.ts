import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { EntityManager, In, IsNull, Not, Repository } from 'typeorm';
import { AuditService } from '../../audit/audit.service';
import { Principal } from '../../access/principal';
import { ApiError } from '../../common/errors/api-error';
import { lockOptions } from '../../database/row-locks';
import { retryOnConcurrentUpdate, updateIfVersion } from '../../common/database/optimistic';
import { TransactionRunner } from '../../database/transactions';
import { User } from '../user.entity';
import { GroupMember } from './group-member.entity';
import { Group } from './group.entity';
import { toGroupResponse } from './group.mapper';
import { CreateGroupDto, GroupResponseDto, ListGroupsQuery, UpdateGroupDto } from './groups.dto';

@Injectable()
export class GroupsService {
  constructor(
    @InjectRepository(Group) private readonly groups: Repository<Group>,
    private readonly audit: AuditService,
    private readonly transactions: TransactionRunner,
  ) {}

  async list(principal: Principal, query: ListGroupsQuery): Promise<GroupResponseDto[]> {
    const groups = await this.groups.find({
      where: {
        organizationId: principal.organizationId,
        ...(query.has_parent === true && { parentGroupId: Not(IsNull()) }),
        ...(query.has_parent === false && { parentGroupId: IsNull() }),
      },
      order: { name: 'ASC', id: 'ASC' },
    });
    return this.render(this.groups.manager, groups);
  }

  async get(principal: Principal, id: string): Promise<GroupResponseDto> {
    const [response] = await this.render(this.groups.manager, [await this.findOwned(principal, id)]);
    return response;
  }

  async create(principal: Principal, dto: CreateGroupDto): Promise<GroupResponseDto> {
    return this.transactions.run(async (manager) => {
      const now = new Date();
      const group = manager.create(Group, {
        id: randomUUID(),
        organizationId: principal.organizationId,
        name: dto.name,
        description: dto.description ?? '',
        parentGroupId: null,
        version: 1,
        createdAt: now,
        updatedAt: now,
      });
      if (dto.parent_group_id) group.parentGroupId = await this.checkedParent(manager, principal, group.id, dto.parent_group_id);
      await manager.insert(Group, group);
      if (dto.user_ids) await this.assignMembers(manager, principal, group.id, dto.user_ids);
      await this.audit.record(manager, principal, 'group.create', group.id);
      const [response] = await this.render(manager, [group]);
      return response;
    });
  }

  async update(principal: Principal, id: string, dto: UpdateGroupDto): Promise<GroupResponseDto> {
    return retryOnConcurrentUpdate(() =>
      this.transactions.run(async (manager) => {
        const group = await this.findOwned(principal, id, manager);
        const parentGroupId =
          dto.parent_group_id === undefined ? undefined : dto.parent_group_id === null ? null : await this.checkedParent(manager, principal, group.id, dto.parent_group_id);
        const changes: Partial<Group> = {
          ...(dto.name !== undefined && { name: dto.name }),
          ...(dto.description !== undefined && { description: dto.description }),
          ...(parentGroupId !== undefined && { parentGroupId }),
          updatedAt: new Date(),
        };
        if (!(await updateIfVersion(manager, Group, group, changes))) return false;
        if (dto.user_ids !== undefined) await this.assignMembers(manager, principal, group.id, dto.user_ids);
        await this.audit.record(manager, principal, 'group.update', group.id);
        const [response] = await this.render(manager, [{ ...group, ...changes, version: group.version + 1 }]);
        return response;
      }),
    );
  }

  /** Its members leave it; its sub-groups become top-level groups. */
  async remove(principal: Principal, id: string): Promise<void> {
    await this.transactions.run(async (manager) => {
      const group = await this.findOwned(principal, id, manager);
      await manager
        .createQueryBuilder()
        .update(Group)
        .set({ parentGroupId: null, updatedAt: new Date(), version: () => '"version" + 1' })
        .where({ parentGroupId: group.id })
        .execute();
      await manager.delete(Group, { id: group.id });
      await this.audit.record(manager, principal, 'group.delete', group.id);
    });
  }

  private async findOwned(principal: Principal, id: string, manager: EntityManager = this.groups.manager): Promise<Group> {
    const group = await manager.findOneBy(Group, { id, organizationId: principal.organizationId });
    if (!group) throw ApiError.notFound('Group', id);
    return group;
  }

  /** The parent must be a group of the organization, and the chain above it must not reach the group itself. */
  private async checkedParent(manager: EntityManager, principal: Principal, groupId: string, parentId: string): Promise<string> {
    const parentGroupId = parentId.toLowerCase();
    // Locked, so that two concurrent re-parentings cannot each miss the other's half of a cycle.
    const all = await manager.find(Group, {
      where: { organizationId: principal.organizationId },
      select: { id: true, parentGroupId: true },
      ...lockOptions(manager, 'update'),
    });
    const parents = new Map(all.map((group) => [group.id, group.parentGroupId]));
    if (!parents.has(parentGroupId)) {
      throw ApiError.validation('The group is not valid', [{ message: 'no such group', code: 'not_found', fields: 'parent_group_id', value: parentId }]);
    }
    const seen = new Set<string>();
    for (let current: string | null | undefined = parentGroupId; current; current = parents.get(current)) {
      if (current === groupId || seen.has(current)) {
        throw ApiError.validation('The group is not valid', [{ message: 'the parent chain would form a cycle', code: 'cycle', fields: 'parent_group_id', value: parentId }]);
      }
      seen.add(current);
    }
    return parentGroupId;
  }

  private async assignMembers(manager: EntityManager, principal: Principal, groupId: string, userIds: string[]): Promise<void> {
    const ids = [...new Set(userIds.map((id) => id.toLowerCase()))];
    if (ids.length > 0) {
      const found = await manager.find(User, { where: { id: In(ids), organizationId: principal.organizationId }, select: { id: true } });
      const missing = ids.filter((id) => !found.some((user) => user.id === id));
      if (missing.length > 0) {
        throw ApiError.validation('The group is not valid', [{ message: 'no such user', code: 'not_found', fields: 'user_ids', value: missing }]);
      }
    }
    await manager.delete(GroupMember, { groupId });
    if (ids.length > 0)
      await manager.insert(
        GroupMember,
        ids.map((userId) => ({ groupId, userId })),
      );
  }

  /** Groups with their member ids: one query for the memberships of the whole list. */
  private async render(manager: EntityManager, groups: Group[]): Promise<GroupResponseDto[]> {
    const memberships = groups.length === 0 ? [] : await manager.find(GroupMember, { where: { groupId: In(groups.map((group) => group.id)) } });
    return groups.map((group) =>
      toGroupResponse(
        group,
        memberships
          .filter((membership) => membership.groupId === group.id)
          .map((membership) => membership.userId)
          .sort(),
      ),
    );
  }
}
