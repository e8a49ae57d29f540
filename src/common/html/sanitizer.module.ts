import { Global, Module } from '@nestjs/common';
import { SanitizerPool } from './sanitizer-pool';

/** One sanitizer worker per process, shared by uploads and HTML fields (docs/decisions.md). */
@Global()
@Module({
  providers: [{ provide: SanitizerPool, useFactory: () => new SanitizerPool() }],
  exports: [SanitizerPool],
})
export class SanitizerModule {}
