import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { generatePassword } from '../auth/passwords';
import { ApiError } from '../common/errors/api-error';
import { ErrorCode } from '../common/errors/error-code';
import { setupConfig, SetupConfig } from '../config/setup.config';
import { CreatedOrganization, OrganizationsService } from '../organizations/organizations.service';
import { User } from '../users/user.entity';

export type PrintSecret = (text: string) => void;

/** On a database without users, creates the first organization and its ADMIN_ORG. */
@Injectable()
export class FirstAdminService {
  private readonly logger = new Logger(FirstAdminService.name);

  constructor(
    @Inject(setupConfig.KEY) private readonly config: SetupConfig,
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly organizations: OrganizationsService,
  ) {}

  async ensureFirstAdmin(printSecret: PrintSecret = (text) => process.stdout.write(text)): Promise<CreatedOrganization | null> {
    if ((await this.users.count()) > 0) return null;
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
      if (error instanceof ApiError && error.code === ErrorCode.Conflict) return null;
      throw error;
    }
    this.logger.log(`Created organization ${created.organization_id} with administrator ${created.admin_email}`);
    if (generated) {
      // Printed once, outside the structured logs, for the operator at the console.
      printSecret(
        `\n  Cartograph administrator created\n  e-mail:   ${created.admin_email}\n  password: ${password}\n  (shown once; set ADMIN_PASSWORD to choose it)\n\n`,
      );
    }
    return created;
  }
}
