import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Not, Repository } from 'typeorm';
import { AuditService } from '../audit/audit.service';
import { PasswordHasher, passwordPolicyErrors } from './passwords';
import { Principal } from '../access/principal';
import { Role } from '../access/roles';
import { UserCredentialHooks } from './user-credential-hooks';
import { Building } from '../cartography/buildings/building.entity';
import { ApiError } from '../common/errors/api-error';
import { lockOptions } from '../database/row-locks';
import { retryOnConcurrentUpdate, updateIfVersion } from '../common/database/optimistic';
import { Page, pageWindow, parseSort, toPage } from '../common/pagination/pagination';
import { lookupTable } from '../common/safety/own-lookup';
import { TransactionRunner } from '../database/transactions';
import { GroupMember } from './groups/group-member.entity';
import { Group } from './groups/group.entity';
import { User } from './user.entity';
import { UserBuilding } from './user-building.entity';
import { toUserResponse } from './user.mapper';
import { ChangePasswordDto, CreateUserDto, ListUsersQuery, SELF_EDITABLE_FIELDS, UpdateUserDto, UserResponseDto } from './users.dto';
import { UsersService } from './users.service';
import { UserListFilters, UserSortColumn, UsersRepository } from './users.repository';

const SORTABLE = lookupTable<UserSortColumn>({
  full_name: 'full_name',
  name: 'full_name',
  email: 'email',
  code: 'code',
  created_at: 'created_at',
  updated_at: 'updated_at',
  last_activity: 'last_activity',
});

const lower = (ids: string[] | undefined) => ids?.map((id) => id.toLowerCase());

/** Users of an organization as its administrators and the users themselves manage them. */
@Injectable()
export class UserAdminService {
  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly accounts: UsersService,
    private readonly passwords: PasswordHasher,
    private readonly audit: AuditService,
    private readonly transactions: TransactionRunner,
    private readonly credentialHooks: UserCredentialHooks,
    private readonly lists: UsersRepository,
  ) {}

  /** Administrators list everyone; a USER's list holds only itself. Three queries. */
  async list(principal: Principal, query: ListUsersQuery): Promise<Page<UserResponseDto>> {
    const window = pageWindow(query);
    const [field, suffix] = (query.sort ?? '').split(',');
    const sort = parseSort(field || undefined, SORTABLE, { column: 'created_at', direction: 'ASC' });
    if (!sort) throw ApiError.badRequest(`sort must be one of ${Object.keys(SORTABLE).join(', ')}`);
    const direction = query.direction ?? (suffix ? (suffix.toUpperCase() as 'ASC' | 'DESC') : sort.direction);

    const filters: UserListFilters = {
      organizationId: principal.organizationId,
      self: principal.role !== Role.AdminOrg ? principal.userId : null,
      ids: lower(query.ids) ?? [],
      excludeIds: lower(query.exclude_ids) ?? [],
      groupIds: lower(query.group_ids) ?? [],
      buildingIds: query.building_ids ?? [],
      hasBuildings: query.has_buildings,
      fullNameContains: query.full_name ? query.full_name.toLowerCase() : undefined,
      codes: query.codes ?? [],
    };
    const rows = await this.lists.page(filters, { column: sort.column as UserSortColumn, direction }, window);
    const total = await this.lists.count(filters);
    return toPage(await this.render(this.users.manager, rows), total, window);
  }

  async get(principal: Principal, id: string): Promise<UserResponseDto> {
    const user = await this.findVisible(principal, id);
    const [response] = await this.render(this.users.manager, [user]);
    return response;
  }

  async create(principal: Principal, dto: CreateUserDto): Promise<UserResponseDto> {
    const user = await this.accounts.prepare({
      organizationId: principal.organizationId,
      email: dto.email,
      password: dto.password,
      role: dto.role ?? Role.User,
      fullName: dto.full_name,
    });
    Object.assign(user, {
      ...(dto.code !== undefined && { code: dto.code }),
      ...(dto.locale !== undefined && { locale: dto.locale }),
      ...(dto.info !== undefined && { info: dto.info }),
      ...(dto.icon_colour !== undefined && { iconColour: dto.icon_colour }),
      ...(dto.is_verified !== undefined && { isVerified: dto.is_verified }),
    });
    return this.transactions.run(async (manager) => {
      await this.accounts.insert(manager, user);
      if (dto.building_ids) await this.assignBuildings(manager, principal, user, dto.building_ids);
      if (dto.group_ids) await this.assignGroups(manager, principal, user.id, dto.group_ids);
      await this.audit.record(manager, principal, 'user.create', user.id);
      const [response] = await this.render(manager, [user]);
      return response;
    });
  }

  /**
   * Administrators change anything; a USER changes only its own profile fields
   * (full_name, locale, info, icon_colour) and uses PUT /users/me/password for its password.
   */
  async update(principal: Principal, id: string, dto: UpdateUserDto): Promise<UserResponseDto> {
    const admin = principal.role === Role.AdminOrg;
    if (!admin) {
      if (id !== principal.userId) throw ApiError.forbidden('Only administrators change other users');
      dto = await this.withoutUnchangedAdminFields(principal, id, dto);
    }
    const passwordHash = dto.password === undefined ? undefined : await this.checkedHash(dto.password, dto.email ?? '', 'password');
    return retryOnConcurrentUpdate(() =>
      this.transactions.run(async (manager) => {
        const user = await this.findVisible(principal, id, manager);
        if (dto.email !== undefined && dto.email !== user.email && (await manager.existsBy(User, { email: dto.email, id: Not(user.id) }))) {
          throw ApiError.conflict('A user with this e-mail already exists', [{ message: 'already taken', code: 'taken', fields: 'email' }]);
        }
        if (dto.password !== undefined && passwordPolicyErrors(dto.password, dto.email ?? user.email).length > 0) {
          throw ApiError.validation('The user is not valid', passwordPolicyErrors(dto.password, dto.email ?? user.email));
        }
        const demoted = user.role === Role.AdminOrg && dto.role === Role.User;
        if (demoted) await this.assertAnotherAdmin(manager, user);
        const changes: Partial<User> = {
          ...(dto.email !== undefined && { email: dto.email }),
          ...(dto.full_name !== undefined && { fullName: dto.full_name, fullNameLower: dto.full_name.toLowerCase() }),
          ...(dto.code !== undefined && { code: dto.code }),
          ...(dto.role !== undefined && { role: dto.role }),
          ...(dto.locale !== undefined && { locale: dto.locale }),
          ...(dto.info !== undefined && { info: dto.info }),
          ...(dto.icon_colour !== undefined && { iconColour: dto.icon_colour }),
          ...(dto.is_verified !== undefined && { isVerified: dto.is_verified }),
          ...(passwordHash !== undefined && { passwordHash }),
          updatedAt: new Date(),
        };
        if (!(await updateIfVersion(manager, User, user, changes))) return false;
        const updated: User = { ...user, ...changes, version: user.version + 1 };
        if (dto.building_ids !== undefined) await this.assignBuildings(manager, principal, updated, dto.building_ids);
        // What the user's tokens and keys may do follows these fields (X-API-EMAIL names the e-mail).
        const credentialsChange = [dto.email, dto.role, dto.building_ids, passwordHash].some((value) => value !== undefined);
        if (credentialsChange) await this.credentialHooks.changed(manager, user.id, { passwordSessions: passwordHash !== undefined });
        if (dto.group_ids !== undefined) await this.assignGroups(manager, principal, user.id, dto.group_ids);
        await this.audit.record(manager, principal, 'user.update', user.id);
        if (dto.role !== undefined && dto.role !== user.role) await this.audit.record(manager, principal, 'user.role_change', user.id);
        if (passwordHash !== undefined) {
          await this.audit.record(manager, principal, 'user.password_reset', user.id);
        }
        const [response] = await this.render(manager, [updated]);
        return response;
      }),
    );
  }

  /**
   * A profile form sends the whole user back: the fields only administrators change are
   * accepted when they equal the stored values (and then not written); only a real change
   * of one is refused. A password is never "unchanged" (its hash cannot be compared).
   */
  private async withoutUnchangedAdminFields(principal: Principal, id: string, dto: UpdateUserDto): Promise<UpdateUserDto> {
    const sent = Object.entries(dto)
      .filter(([, value]) => value !== undefined)
      .map(([key]) => key);
    const guarded = sent.filter((key) => !(SELF_EDITABLE_FIELDS as readonly string[]).includes(key));
    if (guarded.length === 0) return dto;
    const [current] = await this.render(this.users.manager, [await this.findVisible(principal, id)]);
    const stored = current as unknown as Record<string, unknown>;
    const sentValues = dto as Record<string, unknown>;
    const refused = guarded.filter((key) => key === 'password' || !sameFieldValue(sentValues[key], stored[key]));
    if (refused.length > 0) throw ApiError.forbidden(`Only administrators change ${refused.join(', ')}`);
    return Object.fromEntries(Object.entries(dto).filter(([key]) => !guarded.includes(key))) as UpdateUserDto;
  }

  /** The user's tokens and keys stop working at once (their rows cascade). */
  async remove(principal: Principal, id: string): Promise<void> {
    await this.transactions.run(async (manager) => {
      const user = await this.findVisible(principal, id, manager);
      if (user.role === Role.AdminOrg) await this.assertAnotherAdmin(manager, user);
      await manager.delete(User, { id: user.id });
      await this.credentialHooks.changed(manager, user.id, { passwordSessions: false });
      await this.audit.record(manager, principal, 'user.delete', user.id);
    });
  }

  /** Needs the current password; revokes every session opened with the old one. */
  async changeOwnPassword(principal: Principal, dto: ChangePasswordDto): Promise<void> {
    const user = await this.users.findOneBy({ id: principal.userId });
    if (!user) throw ApiError.unauthorized();
    if (!(await this.passwords.verify(user.passwordHash, dto.current_password))) {
      throw ApiError.validation('The current password is wrong', [{ message: 'does not match', code: 'invalid', fields: 'current_password' }]);
    }
    const passwordHash = await this.checkedHash(dto.new_password, user.email, 'new_password');
    await this.transactions.run(async (manager) => {
      await manager.update(User, { id: user.id }, { passwordHash, updatedAt: new Date(), version: () => '"version" + 1' });
      await this.credentialHooks.changed(manager, user.id, { passwordSessions: true });
      await this.audit.record(manager, principal, 'user.password_change', user.id);
    });
  }

  private async checkedHash(password: string, email: string, field: string): Promise<string> {
    const errors = passwordPolicyErrors(password, email, field);
    if (errors.length > 0) throw ApiError.validation('The password is not acceptable', errors);
    return this.passwords.hash(password);
  }

  /** Administrators see the organization's users; a USER only itself (others are 403). */
  private async findVisible(principal: Principal, id: string, manager: EntityManager = this.users.manager): Promise<User> {
    if (principal.role !== Role.AdminOrg && id !== principal.userId) throw ApiError.forbidden('Only administrators read other users');
    const user = await manager.findOneBy(User, { id, organizationId: principal.organizationId });
    if (!user) throw ApiError.notFound('User', id);
    return user;
  }

  /** The last ADMIN_ORG of an organization can be neither deleted nor demoted. */
  private async assertAnotherAdmin(manager: EntityManager, user: User): Promise<void> {
    const admins = await manager.find(User, {
      where: { organizationId: user.organizationId, role: Role.AdminOrg },
      select: { id: true },
      ...lockOptions(manager, 'update'),
    });
    if (!admins.some((admin) => admin.id !== user.id)) {
      throw ApiError.conflict('This is the last ADMIN_ORG of the organization; make another user ADMIN_ORG first');
    }
  }

  private async assignBuildings(manager: EntityManager, principal: Principal, user: User, buildingIds: number[]): Promise<void> {
    const ids = [...new Set(buildingIds)];
    if (ids.length > 0) {
      // Deleted buildings are accepted: they stay in a restriction (which keeps restricting), so a client may send the list back as it read it.
      const found = await manager.find(Building, { where: { id: In(ids), organizationId: principal.organizationId }, select: { id: true } });
      const missing = ids.filter((id) => !found.some((building) => building.id === id));
      if (missing.length > 0) {
        throw ApiError.validation('The user is not valid', [{ message: 'no such building', code: 'not_found', fields: 'building_ids', value: missing }]);
      }
    }
    await manager.delete(UserBuilding, { userId: user.id });
    if (ids.length > 0)
      await manager.insert(
        UserBuilding,
        ids.map((buildingId) => ({ userId: user.id, buildingId })),
      );
    await manager.update(User, { id: user.id }, { buildingScope: ids });
    user.buildingScope = ids;
  }

  private async assignGroups(manager: EntityManager, principal: Principal, userId: string, groupIds: string[]): Promise<void> {
    const ids = [...new Set(groupIds.map((id) => id.toLowerCase()))];
    if (ids.length > 0) {
      const found = await manager.find(Group, { where: { id: In(ids), organizationId: principal.organizationId }, select: { id: true } });
      const missing = ids.filter((id) => !found.some((group) => group.id === id));
      if (missing.length > 0) {
        throw ApiError.validation('The user is not valid', [{ message: 'no such group', code: 'not_found', fields: 'group_ids', value: missing }]);
      }
    }
    await manager.delete(GroupMember, { userId });
    if (ids.length > 0)
      await manager.insert(
        GroupMember,
        ids.map((groupId) => ({ groupId, userId })),
      );
  }

  /** Users with their group ids: one query for the memberships of the whole list. */
  private async render(manager: EntityManager, users: User[]): Promise<UserResponseDto[]> {
    const memberships = users.length === 0 ? [] : await manager.find(GroupMember, { where: { userId: In(users.map((user) => user.id)) } });
    return users.map((user) =>
      toUserResponse(
        user,
        memberships
          .filter((membership) => membership.userId === user.id)
          .map((membership) => membership.groupId)
          .sort(),
      ),
    );
  }
}

/** Lists (group and building ids) compare as sets: their order carries no meaning. */
function sameFieldValue(sent: unknown, stored: unknown): boolean {
  if (Array.isArray(sent) && Array.isArray(stored)) {
    const key = (values: unknown[]) => JSON.stringify([...new Set(values.map(String))].sort());
    return key(sent) === key(stored);
  }
  return sent === stored;
}
