import { Global, Module, OnModuleInit } from '@nestjs/common';
import { metricsRegistry } from '../common/metrics/metrics.registry';
import { registerCredentialCacheMetrics } from './credential-cache.metrics';
import { CredentialCacheService } from './credential-cache.service';

/** Global so that whoever changes what a credential may do (users, keys, sessions) can revoke it. */
@Global()
@Module({
  providers: [CredentialCacheService],
  exports: [CredentialCacheService],
})
export class CredentialCacheModule implements OnModuleInit {
  onModuleInit(): void {
    // Hit rate and size on /metrics (read from the live caches at scrape time).
    registerCredentialCacheMetrics(metricsRegistry);
  }
}
