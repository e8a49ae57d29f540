import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager, IsNull } from 'typeorm';
import { UserCredentialHooks } from '../users/user-credential-hooks';
import { CredentialCacheService } from './credential-cache.service';
import { AuthSession } from './sessions/auth-session.entity';

/**
 * A user's credentials stop working as soon as what they stand for changes: its cached
 * credentials are dropped on every instance, and a password change ends the sessions opened
 * with the old password, in the transaction of the change.
 */
@Injectable()
export class UserCredentialRevocation implements OnModuleInit {
  constructor(
    private readonly hooks: UserCredentialHooks,
    private readonly credentials: CredentialCacheService,
  ) {}

  onModuleInit(): void {
    this.hooks.register((manager, userId, change) => this.revoke(manager, userId, change.passwordSessions));
  }

  private async revoke(manager: EntityManager, userId: string, passwordSessions: boolean): Promise<void> {
    if (passwordSessions) await manager.update(AuthSession, { userId, apiKeyId: IsNull(), revokedAt: IsNull() }, { revokedAt: new Date() });
    await this.credentials.revokeUser(manager, userId);
  }
}
