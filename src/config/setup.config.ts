import { join } from 'node:path';
import { registerAs } from '@nestjs/config';
import { passwordPolicyErrors } from './password-policy';
import { readAppConfig } from './app.config';
import { ConfigurationError, Env, readOptionalString, readString } from './env';

export const FIRST_ADMIN_PASSWORD_FILE = 'first-admin-password';

export interface SetupConfig {
  organizationName: string;
  adminEmail: string;
  /** Unset: a strong password is generated and printed once. */
  adminPassword: string | undefined;
  /** Where a generated password goes when the log level hides the line that shows it. */
  adminPasswordFile: string;
}

export function readSetupConfig(env: Env): SetupConfig {
  const adminEmail = readString(env, 'ADMIN_EMAIL', 'admin@cartograph.local');
  const adminPassword = readOptionalString(env, 'ADMIN_PASSWORD');
  // Checked before anything starts: a weak password must not cost a half-finished first start.
  const problems = adminPassword === undefined ? [] : passwordPolicyErrors(adminPassword, adminEmail, 'ADMIN_PASSWORD');
  if (problems.length > 0) {
    throw new ConfigurationError(
      `ADMIN_PASSWORD does not meet the password policy: ${problems.map((problem) => problem.message).join('; ')} (or leave it unset to have one generated)`,
      'ADMIN_PASSWORD',
    );
  }
  return {
    organizationName: readString(env, 'ORGANIZATION_NAME', 'My organization'),
    adminEmail,
    adminPassword,
    adminPasswordFile: join(readAppConfig(env).dataDir, FIRST_ADMIN_PASSWORD_FILE),
  };
}

export const setupConfig = registerAs('setup', (): SetupConfig => readSetupConfig(process.env));
