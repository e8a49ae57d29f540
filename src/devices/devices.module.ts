import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { GeofencingModule } from '../geofencing/geofencing.module';
import { NavigationModule } from '../navigation/navigation.module';
import { PositionsModule } from '../positions/positions.module';
import { Device } from './device.entity';
import { DevicesController } from './devices.controller';
import { DevicesRepository } from './devices.repository';
import { DevicesService } from './devices.service';

@Module({
  imports: [TypeOrmModule.forFeature([Device]), PositionsModule, GeofencingModule, NavigationModule],
  controllers: [DevicesController],
  providers: [DevicesService, DevicesRepository],
})
export class DevicesModule {}
