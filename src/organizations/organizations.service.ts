import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { Repository } from 'typeorm';
import { ApiError } from '../common/errors/api-error';
import { TransactionRunner } from '../database/transactions';
import { Principal } from '../access/principal';
import { Role } from '../access/roles';
import { UsersService } from '../users/users.service';
import { toOrganizationResponse } from './organization.mapper';
import { Organization } from './organization.entity';
import { OrganizationResponseDto, UpdateOrganizationDto } from './organizations.dto';

export interface NewOrganization {
  name: string;
  adminEmail: string;
  adminPassword: string;
}

export interface CreatedOrganization {
  organization_id: string;
  admin_user_id: string;
  admin_email: string;
}

@Injectable()
export class OrganizationsService {
  constructor(
    @InjectRepository(Organization) private readonly organizations: Repository<Organization>,
    private readonly users: UsersService,
    private readonly transactions: TransactionRunner,
  ) {}

  /** An organization and its first ADMIN_ORG, both or neither. */
  async createWithAdmin(input: NewOrganization): Promise<CreatedOrganization> {
    const name = input.name.trim();
    if (!name || name.length > 255) {
      throw ApiError.validation('The organization is not valid', [{ message: 'the name must have 1 to 255 characters', code: 'invalid', fields: 'name' }]);
    }
    const now = new Date();
    const organization = this.organizations.create({ id: randomUUID(), name, createdAt: now, updatedAt: now });
    const admin = await this.users.prepare({
      organizationId: organization.id,
      email: input.adminEmail,
      password: input.adminPassword,
      role: Role.AdminOrg,
      fullName: 'Administrator',
    });
    await this.transactions.run(async (manager) => {
      await manager.insert(Organization, organization);
      await this.users.insert(manager, admin);
    });
    return { organization_id: organization.id, admin_user_id: admin.id, admin_email: admin.email };
  }

  async getCurrent(principal: Principal): Promise<OrganizationResponseDto> {
    const organization = await this.organizations.findOneBy({ id: principal.organizationId });
    if (!organization) throw ApiError.notFound('Organization', principal.organizationId);
    return toOrganizationResponse(organization);
  }

  async updateCurrent(principal: Principal, dto: UpdateOrganizationDto): Promise<OrganizationResponseDto> {
    return this.transactions.run(async (manager) => {
      const organization = await manager.findOneBy(Organization, { id: principal.organizationId });
      if (!organization) throw ApiError.notFound('Organization', principal.organizationId);
      if (dto.name !== undefined) organization.name = dto.name;
      organization.updatedAt = new Date();
      await manager.update(Organization, { id: organization.id }, { name: organization.name, updatedAt: organization.updatedAt });
      return toOrganizationResponse(organization);
    });
  }
}
