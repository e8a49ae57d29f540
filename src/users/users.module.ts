import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PasswordHasher } from './passwords';
import { User } from './user.entity';
import { UserBuilding } from './user-building.entity';
import { UserAdminService } from './user-admin.service';
import { UserCredentialHooks } from './user-credential-hooks';
import { UsersController } from './users.controller';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

@Module({
  imports: [TypeOrmModule.forFeature([User, UserBuilding])],
  controllers: [UsersController],
  providers: [UsersService, UserAdminService, UsersRepository, PasswordHasher, UserCredentialHooks],
  exports: [UsersService, PasswordHasher, UserCredentialHooks],
})
export class UsersModule {}
