import { Module } from '@nestjs/common';
import { AuthModule } from '../../auth/auth.module';
import { PositionsModule } from '../../positions/positions.module';
import { PositionStreamsService } from './position-streams.service';
import { RealtimeStreamController } from './realtime-stream.controller';
import { StreamsService } from './streams.service';

/** Live streams (contract 7.4): the SSE machinery, the per-organization bound, and the position stream. */
@Module({
  imports: [AuthModule, PositionsModule],
  controllers: [RealtimeStreamController],
  providers: [StreamsService, PositionStreamsService],
  exports: [StreamsService],
})
export class StreamsModule {}
