import { Injectable } from '@nestjs/common';
import { reportBuildInfo } from '../common/metrics/operations.metrics';
import { packageVersion } from './package-version';

/** The newest entry of the seed's version history that this server implements. */
export const API_VERSION = '1.50.1';

@Injectable()
export class VersionService {
  private readonly response = { version: packageVersion(), api_version: API_VERSION };

  constructor() {
    reportBuildInfo(this.response.version, API_VERSION);
  }

  current(): { version: string; api_version: string } {
    return { ...this.response };
  }
}
