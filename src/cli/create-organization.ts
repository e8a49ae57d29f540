import { NestFactory } from '@nestjs/core';
import { parseArgs } from 'node:util';
import { AppModule } from '../app.module';
import { generatePassword } from '../users/passwords';
import { NestPinoLogger } from '../common/logging/logger';
import { Env } from '../config/env';
import { OrganizationsService } from '../organizations/organizations.service';
import { CliOutput, existingDatabase, readPassword, refusePasswordArgument, UsageError } from './cli-support';

/** `organizations:create`: an organization and its ADMIN_ORG, through the application's own service. */
export async function createOrganization(args: string[], env: Env, output: CliOutput): Promise<void> {
  refusePasswordArgument(args);
  const { values } = parseArgs({
    args,
    options: { name: { type: 'string' }, 'admin-email': { type: 'string' }, 'password-stdin': { type: 'boolean' } },
    strict: true,
  });
  if (!values.name || !values['admin-email']) throw new UsageError('--name and --admin-email are required');
  existingDatabase(env);
  const generatedPassword = values['password-stdin'] ? undefined : generatePassword();
  const password = generatedPassword ?? (await readPassword(output));
  // It may run beside the server: no background work of its own (the server delivers webhooks and fires deadlines).
  process.env.WEBHOOK_WORKER = 'false';
  process.env.GEOFENCE_SWEEPER = 'false';
  const app = await NestFactory.createApplicationContext(AppModule, { logger: new NestPinoLogger(), abortOnError: false });
  try {
    const created = await app.get(OrganizationsService).createWithAdmin({ name: values.name, adminEmail: values['admin-email'], adminPassword: password });
    output.stdout(`${JSON.stringify({ ...created, ...(generatedPassword ? { admin_password: generatedPassword } : {}) }, null, 2)}\n`);
  } finally {
    await app.close();
  }
}
