import { registerAs } from '@nestjs/config';
import { Env, readOptionalString, readString } from './env';

export interface SetupConfig {
  organizationName: string;
  adminEmail: string;
  /** Unset: a strong password is generated and printed once. */
  adminPassword: string | undefined;
}

export function readSetupConfig(env: Env): SetupConfig {
  return {
    organizationName: readString(env, 'ORGANIZATION_NAME', 'My organization'),
    adminEmail: readString(env, 'ADMIN_EMAIL', 'admin@cartograph.local'),
    adminPassword: readOptionalString(env, 'ADMIN_PASSWORD'),
  };
}

export const setupConfig = registerAs('setup', (): SetupConfig => readSetupConfig(process.env));
