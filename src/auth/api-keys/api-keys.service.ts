import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { In, Repository } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import { parseDatabaseTimestamp } from '../../common/database/raw-values';
import { AuditService } from '../../audit/audit.service';
import { CredentialOwnersRepository, KeyOwnerRow } from '../credential-owners.repository';
import { TransactionRunner } from '../../database/transactions';
import { User } from '../../users/user.entity';
import { buildingScopeOf } from '../../access/building-scope';
import { CredentialCacheService } from '../credential-cache.service';
import { ApiPermission, isApiPermission } from '../../access/permissions';
import { CredentialKind, Principal } from '../../access/principal';
import { Role } from '../../access/roles';
import { generateApiKey, hashesEqual, looksLikeApiKey, maskApiKey, sha256Hex } from '../secrets';
import { API_KEY_CIPHER, ApiKeyCipher } from './api-key-cipher';
import { ApiKey } from './api-key.entity';
import { toApiKeyResponse } from './api-key.mapper';
import { ApiKeyResponseDto, CreateApiKeyDto, ListApiKeysQuery, UpdateApiKeyDto } from './api-keys.dto';

// last_used_at is refreshed at most this often, so using a key is not a write per request.
const LAST_USED_RESOLUTION_MS = 60_000;

@Injectable()
export class ApiKeysService {
  private readonly logger = new Logger(ApiKeysService.name);

  constructor(
    @InjectRepository(ApiKey) private readonly keys: Repository<ApiKey>,
    private readonly transactions: TransactionRunner,
    private readonly audit: AuditService,
    private readonly credentials: CredentialCacheService,
    @Inject(API_KEY_CIPHER) private readonly cipher: ApiKeyCipher,
    private readonly owners: CredentialOwnersRepository,
  ) {}

  /** Resolves an X-API-KEY to its owner, or false. One indexed lookup; no slow hashing. */
  async authenticate(secret: string): Promise<Principal | false> {
    if (!looksLikeApiKey(secret)) return false;
    const hash = sha256Hex(secret);
    const rows = await this.owners.keyByHash(hash);
    const row = rows[0];
    if (!row || !hashesEqual(row.key_hash, hash)) return false;
    const principal = keyPrincipal(row);
    if (!principal) return false;
    this.touch(row.id, parseDatabaseTimestamp(row.last_used_at));
    return principal;
  }

  /** What the key with this id may do now (a stream opened with a ticket it minted asks again), or null once it is deleted or disabled. */
  async principalOfKey(id: string): Promise<Principal | null> {
    const [row] = await this.owners.keyById(id);
    return row ? keyPrincipal(row) : null;
  }

  /** Your keys; an ADMIN_ORG may list another user's of the organization with `user_id`. */
  async list(principal: Principal, query: ListApiKeysQuery): Promise<ApiKeyResponseDto[]> {
    const userId = query.user_id?.toLowerCase() ?? principal.userId;
    if (userId !== principal.userId) {
      if (principal.role !== Role.AdminOrg) throw ApiError.forbidden("Only administrators list other users' keys");
      if (!(await this.keys.manager.existsBy(User, { id: userId, organizationId: principal.organizationId }))) throw ApiError.notFound('User', userId);
    }
    const keys = await this.keys.find({
      where: { userId, organizationId: principal.organizationId, ...(query.permissions?.length ? { permission: In(query.permissions) } : {}) },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
    // Only the owner and the organization's administrators get here; positioning keys are theirs to read in full.
    return keys.map((key) => toApiKeyResponse(key, this.readableSecret(key)));
  }

  async create(principal: Principal, dto: CreateApiKeyDto): Promise<ApiKeyResponseDto> {
    const { secret, hash } = generateApiKey();
    const id = randomUUID();
    const permission = dto.permission ?? ApiPermission.ReadOnly;
    const key = this.keys.create({
      id,
      organizationId: principal.organizationId,
      userId: principal.userId,
      keyHash: hash,
      maskedKey: maskApiKey(secret),
      permission,
      // Positioning keys are embedded in apps and read again by their owner (contract 10); others stay hash-only.
      sealedKey: permission === ApiPermission.Positioning ? this.cipher.seal(secret, id) : null,
      description: dto.description ?? '',
      createdAt: new Date(),
      lastUsedAt: null,
    });
    await this.transactions.run(async (manager) => {
      await manager.insert(ApiKey, key);
      await this.audit.record(manager, principal, 'apikey.create', key.id);
    });
    return toApiKeyResponse(key, secret);
  }

  async update(principal: Principal, id: string, dto: UpdateApiKeyDto): Promise<ApiKeyResponseDto> {
    return this.transactions.run(async (manager) => {
      const key = await manager.findOneBy(ApiKey, { id, userId: principal.userId, organizationId: principal.organizationId });
      if (!key) throw ApiError.notFound('API key', id);
      if (dto.permission !== undefined && dto.permission !== key.permission) await this.credentials.revokeUser(manager, key.userId);
      if (dto.permission !== undefined) key.permission = dto.permission;
      if (dto.description !== undefined) key.description = dto.description;
      // A key leaving the positioning level becomes hash-only for good; one joining it was never kept, so it stays masked.
      if (key.permission !== ApiPermission.Positioning) key.sealedKey = null;
      await manager.update(ApiKey, { id: key.id }, { permission: key.permission, description: key.description, sealedKey: key.sealedKey });
      await this.audit.record(manager, principal, 'apikey.update', key.id);
      return toApiKeyResponse(key, this.readableSecret(key));
    });
  }

  /**
   * The key, and every token obtained with it (their sessions cascade), stop working at
   * once. An ADMIN_ORG may delete the keys of any user of the organization.
   */
  async remove(principal: Principal, id: string): Promise<void> {
    const owner = principal.role === Role.AdminOrg ? {} : { userId: principal.userId };
    await this.transactions.run(async (manager) => {
      const key = await manager.findOne(ApiKey, { where: { id, organizationId: principal.organizationId, ...owner }, select: { id: true, userId: true } });
      if (!key) throw ApiError.notFound('API key', id);
      await manager.delete(ApiKey, { id: key.id });
      await this.credentials.revokeUser(manager, key.userId);
      await this.audit.record(manager, principal, 'apikey.delete', id);
    });
  }

  /** The full secret of a positioning key that has one sealed; undefined means "show it masked". */
  private readableSecret(key: ApiKey): string | undefined {
    if (key.permission !== ApiPermission.Positioning || !key.sealedKey) return undefined;
    const secret = this.cipher.open(key.sealedKey, key.id);
    if (secret === null) this.logger.warn(`Positioning key ${key.id} was sealed under another server secret; it is shown masked`);
    return secret ?? undefined;
  }

  private touch(id: string, lastUsedAt: Date | null): void {
    const now = new Date();
    if (lastUsedAt && now.getTime() - lastUsedAt.getTime() < LAST_USED_RESOLUTION_MS) return;
    this.transactions
      .run((manager) => manager.update(ApiKey, { id }, { lastUsedAt: now }))
      .catch((error: unknown) => this.logger.warn(`Could not record the use of API key ${id}: ${String(error)}`));
  }
}

function keyPrincipal(row: KeyOwnerRow): Principal | null {
  if (!isApiPermission(row.permission) || row.permission === ApiPermission.Disabled) return null;
  return {
    userId: row.user_id,
    organizationId: row.organization_id,
    email: row.email,
    role: row.role,
    permission: row.permission,
    credential: CredentialKind.ApiKey,
    apiKeyId: row.id,
    sessionId: null,
    buildingIds: buildingScopeOf(row.role, row.building_scope),
  };
}
