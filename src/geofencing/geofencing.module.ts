import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BuildingsModule } from '../buildings/buildings.module';
import { DeliveryModule } from '../delivery/delivery.module';
import { GeofencesModule } from '../geofences/geofences.module';
import { GeofenceEvaluator } from './events/geofence-evaluator.service';
import { GeofenceEventLog } from './events/event-log.service';
import { GeofenceDeadlineSweeper } from './events/deadline-sweeper';
import { GeofenceOccupancyController } from './occupancy/occupancy.controller';
import { GeofenceOccupancyService } from './occupancy/occupancy.service';
import { GeofenceEventsController, GeofenceSimulationController } from './events/events.controller';
import { GeofenceSimulation } from './events/simulation.service';
import { FloorIndexes } from './queries/floor-indexes';
import { GeofencingQueriesController } from './queries/queries.controller';
import { GeofencingQueriesService } from './queries/queries.service';
import { GeofenceRuleSet } from './rules/geofence-rule-set.entity';
import { GeofencingSettings } from './rules/geofencing-settings.entity';
import { GeofencingRulesController } from './rules/rules.controller';
import { GeofencingRulesService } from './rules/rules.service';

/** Geofence evaluation (contract 7): rules and settings, and the stateless queries over a floor's fences. */
@Module({
  imports: [TypeOrmModule.forFeature([GeofenceRuleSet, GeofencingSettings]), BuildingsModule, DeliveryModule, GeofencesModule],
  controllers: [GeofencingRulesController, GeofencingQueriesController, GeofenceEventsController, GeofenceSimulationController, GeofenceOccupancyController],
  providers: [GeofencingRulesService, GeofencingQueriesService, FloorIndexes, GeofenceEvaluator, GeofenceEventLog, GeofenceDeadlineSweeper, GeofenceOccupancyService, GeofenceSimulation],
  exports: [GeofencingRulesService, FloorIndexes, GeofenceEvaluator, GeofenceEventLog],
})
export class GeofencingModule {}
