import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Repository } from 'typeorm';
import { generatePassword } from '../users/passwords';
import { ApiError } from '../common/errors/api-error';
import { ErrorCode } from '../common/errors/error-code';
import { Logger, rootLogger } from '../common/logging/logger';
import { setupConfig, SetupConfig } from '../config/setup.config';
import { CreatedOrganization, OrganizationsService } from '../organizations/organizations.service';
import { User } from '../users/user.entity';

/**
 * On a database without users, creates the first organization and its ADMIN_ORG. The
 * server calls it once it listens, so a start that fails (port taken, bad setting) never
 * leaves an administrator whose generated password scrolled by.
 */
@Injectable()
export class FirstAdminService {
  constructor(
    @Inject(setupConfig.KEY) private readonly config: SetupConfig,
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly organizations: OrganizationsService,
  ) {}

  async ensureFirstAdmin(logger: Logger = rootLogger()): Promise<CreatedOrganization | null> {
    if ((await this.users.count()) > 0) {
      this.reportIgnoredPassword(logger);
      return null;
    }
    const generated = this.config.adminPassword === undefined;
    const password = this.config.adminPassword ?? generatePassword();
    let created: CreatedOrganization;
    try {
      created = await this.organizations.createWithAdmin({
        name: this.config.organizationName,
        adminEmail: this.config.adminEmail,
        adminPassword: password,
      });
    } catch (error) {
      // Another instance starting at the same time created it first.
      if (error instanceof ApiError && error.code === ErrorCode.Conflict) {
        this.reportIgnoredPassword(logger);
        return null;
      }
      throw error;
    }
    if (generated && !logger.isLevelEnabled('warn')) {
      this.writePasswordFile(logger, created, password);
      return created;
    }
    // The one log line that carries a secret: the generated password, shown this once for the operator.
    logger.warn(
      {
        context: 'FirstAdmin',
        organization_id: created.organization_id,
        admin_email: created.admin_email,
        ...(generated ? { admin_password: password } : {}),
      },
      generated
        ? 'Cartograph administrator created; its generated password is shown this once (set ADMIN_PASSWORD to choose it)'
        : 'Cartograph administrator created with ADMIN_PASSWORD',
    );
    return created;
  }

  /**
   * LOG_LEVEL hides the warning that shows the generated password (error, fatal, silent): the
   * password goes, once, to a file only the server's user can read, and the line that says
   * where is written at the least severe level still shown.
   */
  private writePasswordFile(logger: Logger, created: CreatedOrganization, password: string): void {
    const file = this.config.adminPasswordFile;
    const fields = { context: 'FirstAdmin', organization_id: created.organization_id, admin_email: created.admin_email };
    const level = logger.isLevelEnabled('error') ? 'error' : 'fatal';
    try {
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
      // `wx`: never over an older file (a second database on the same DATA_DIR must not hide the first's password).
      writeFileSync(file, `${created.admin_email}\n${password}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      logger[level](
        { ...fields, admin_password_file: file, error: (error as Error).message },
        `Cartograph administrator created; its generated password could not be written to ${file} (LOG_LEVEL=${logger.level} hides the line that shows it): set one with \`npm run cli -- reset-password --email ${created.admin_email}\``,
      );
      return;
    }
    logger[level](
      { ...fields, admin_password_file: file },
      `Cartograph administrator created; LOG_LEVEL=${logger.level} hides the line with its generated password, so it was written to ${file} (mode 0600): read it, then delete the file`,
    );
  }

  private reportIgnoredPassword(logger: Logger): void {
    if (this.config.adminPassword === undefined) return;
    logger.info({ context: 'FirstAdmin' }, 'ADMIN_PASSWORD is ignored: the database has users already (change a password with `npm run cli -- reset-password --email <e-mail>`)');
  }
}
