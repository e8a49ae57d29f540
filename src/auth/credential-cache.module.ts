import { Global, Module } from '@nestjs/common';
import { CredentialCacheService } from './credential-cache.service';

/** Global so that whoever changes what a credential may do (users, keys, sessions) can revoke it. */
@Global()
@Module({
  providers: [CredentialCacheService],
  exports: [CredentialCacheService],
})
export class CredentialCacheModule {}
