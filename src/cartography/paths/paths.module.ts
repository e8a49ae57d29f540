import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BuildingsModule } from '../buildings/buildings.module';
import { PathGraph } from './path-graph.entity';
import { PathsController } from './paths.controller';
import { PathsService } from './paths.service';

@Module({
  imports: [TypeOrmModule.forFeature([PathGraph]), BuildingsModule],
  controllers: [PathsController],
  providers: [PathsService],
})
export class PathsModule {}
