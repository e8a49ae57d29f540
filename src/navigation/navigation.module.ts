import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PathsModule } from '../cartography/paths/paths.module';
import { DeviceNavigation } from './device-navigation.entity';
import { DeviceNavigationsRepository } from './device-navigations.repository';
import { NavigationController } from './navigation.controller';
import { NavigationFollower } from './navigation-follower';
import { NavigationService } from './navigation.service';

/** Guided devices (issue 40, "Following a route"): the navigation routes, and the fix pipeline's stage that moves them on. */
@Module({
  imports: [TypeOrmModule.forFeature([DeviceNavigation]), PathsModule],
  controllers: [NavigationController],
  providers: [NavigationService, NavigationFollower, DeviceNavigationsRepository],
  exports: [NavigationFollower, DeviceNavigationsRepository],
})
export class NavigationModule {}
