import { Module } from '@nestjs/common';
import { AuthModule } from '../../auth/auth.module';
import { GeofencingModule } from '../../geofencing/geofencing.module';
import { NavigationModule } from '../../navigation/navigation.module';
import { PositionsModule } from '../../positions/positions.module';
import { GeofenceEventStreamController } from './event-stream.controller';
import { EventStreamsService } from './event-streams.service';
import { PositionStreamsService } from './position-streams.service';
import { RealtimeStreamController } from './realtime-stream.controller';
import { StreamLeases } from './stream-leases';
import { StreamLeasesRepository } from './stream-leases.repository';
import { StreamsService } from './streams.service';

/** Live streams (contract 7.4): the SSE machinery, the per-organization bound, the position stream and the geofence event stream. */
@Module({
  imports: [AuthModule, PositionsModule, GeofencingModule, NavigationModule],
  controllers: [RealtimeStreamController, GeofenceEventStreamController],
  providers: [StreamsService, StreamLeases, StreamLeasesRepository, PositionStreamsService, EventStreamsService],
  exports: [StreamsService],
})
export class StreamsModule {}
