import { NestFactory } from '@nestjs/core';
import { parseArgs } from 'node:util';
import { AppModule } from '../app.module';
import { generatePassword } from '../auth/passwords';
import { ApiError } from '../common/errors/api-error';
import { createJsonLogger } from '../common/logging/json-logger';
import { OrganizationsService } from '../organizations/organizations.service';

const USAGE = `Usage:
  npm run cli -- organizations:create --name <name> --admin-email <email> [--admin-password <password>]

Prints the new ids as JSON. Without --admin-password a strong one is generated and printed.
Uses the same environment as the server (DATA_DIR, DATABASE_URL, ...).`;

export interface CliOutput {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

async function createOrganization(args: string[], output: CliOutput): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { name: { type: 'string' }, 'admin-email': { type: 'string' }, 'admin-password': { type: 'string' } },
    strict: true,
  });
  if (!values.name || !values['admin-email']) throw new UsageError('--name and --admin-email are required');
  const generatedPassword = values['admin-password'] ? undefined : generatePassword();
  const app = await NestFactory.createApplicationContext(AppModule, { logger: createJsonLogger(['error', 'fatal']) });
  try {
    const created = await app.get(OrganizationsService).createWithAdmin({
      name: values.name,
      adminEmail: values['admin-email'],
      adminPassword: values['admin-password'] ?? generatedPassword!,
    });
    output.stdout(`${JSON.stringify({ ...created, ...(generatedPassword ? { admin_password: generatedPassword } : {}) }, null, 2)}\n`);
  } finally {
    await app.close();
  }
}

class UsageError extends Error {}

/** Runs one operator command; returns the process exit code. */
export async function runCli(argv: string[], output: CliOutput): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'organizations:create':
        await createOrganization(rest, output);
        return 0;
      default:
        throw new UsageError(command ? `Unknown command: ${command}` : 'No command given');
    }
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      output.stderr(`${(error as Error).message}\n\n${USAGE}\n`);
      return 2;
    }
    if (error instanceof ApiError) {
      output.stderr(`${JSON.stringify(error.toBody(), null, 2)}\n`);
      return 1;
    }
    throw error;
  }
}

