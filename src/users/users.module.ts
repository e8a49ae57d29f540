import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PasswordHasher } from '../auth/passwords';
import { User } from './user.entity';
import { UserBuilding } from './user-building.entity';
import { UserAdminService } from './user-admin.service';
import { UsersController } from './users.controller';
import { UsersService } from './users.service';

@Module({
  imports: [TypeOrmModule.forFeature([User, UserBuilding])],
  controllers: [UsersController],
  providers: [UsersService, UserAdminService, PasswordHasher],
  exports: [UsersService, PasswordHasher],
})
export class UsersModule {}
