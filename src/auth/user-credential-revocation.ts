import { Injectable, OnModuleInit } from '@nestjs/common';
import { UserCredentialHooks } from '../users/user-credential-hooks';
import { CredentialCacheService } from './credential-cache.service';
import { revokeUserCredentials } from './credential-revocations';

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
    // Through the cache: this instance forgets the user on commit, before the change is acknowledged.
    this.hooks.register((manager, userId, change) => revokeUserCredentials(manager, userId, change, (m, user) => this.credentials.revokeUser(m, user)));
  }
}
