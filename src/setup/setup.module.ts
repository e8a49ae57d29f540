import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OrganizationsModule } from '../organizations/organizations.module';
import { User } from '../users/user.entity';
import { FirstAdminService } from './first-admin.service';

@Module({
  imports: [TypeOrmModule.forFeature([User]), OrganizationsModule],
  providers: [FirstAdminService],
  exports: [FirstAdminService],
})
export class SetupModule {}
