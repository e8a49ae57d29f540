import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BuildingsModule } from '../cartography/buildings/buildings.module';
import { GeofencesModule } from '../cartography/geofences/geofences.module';
import { PositionsModule } from '../positions/positions.module';
import { ENGINE_CLOCK, systemClock } from './engine/clock';
import { GeofenceEventPort } from './events/event-port';
import { GeofenceEventRecorder } from './events/geofence-event-recorder';
import { GeofenceStateRepository } from './state/geofence-state.repository';
import { LiveFencesRepository } from './state/live-fences.repository';
import { GeofenceEvaluator } from './events/geofence-evaluator.service';
import { GeofenceEventLog } from './events/event-log.service';
import { GeofenceEventRetention } from './events/event-retention.service';
import { GeofenceEventRetentionRepository } from './events/event-retention.repository';
import { GeofenceDeadlineSweeper } from './events/deadline-sweeper';
import { GeofenceOccupancyController } from './occupancy/occupancy.controller';
import { GeofenceOccupancyService } from './occupancy/occupancy.service';
import { GeofenceOccupancyRepository } from './occupancy/occupancy.repository';
import { GeofenceEventsController, GeofenceSimulationController } from './events/events.controller';
import { GeofenceSimulation } from './events/simulation.service';
import { FloorFenceCache } from './queries/floor-fence-cache';
import { GeofencingQueriesController } from './queries/queries.controller';
import { GeofencingQueriesService } from './queries/queries.service';
import { GeofenceRuleSet } from './rules/geofence-rule-set.entity';
import { GeofencingSettings } from './rules/geofencing-settings.entity';
import { GeofencingRulesController } from './rules/rules.controller';
import { GeofenceRulesRepository } from './rules/geofence-rules.repository';
import { GeofenceEventLogRepository } from './events/event-log.repository';
import { GeofencingRulesService } from './rules/rules.service';

/**
 * Geofence evaluation (contract 7): rules and settings; the evaluator, its pair states and the
 * events it records (with their outbox, log, retention and the deadline sweeper that fires
 * dwell, exit-grace and stale deadlines when no fix arrives); occupancy; simulation; and the stateless queries over a
 * floor's fences. The engine itself (./engine) is plain TypeScript.
 */
@Module({
  imports: [TypeOrmModule.forFeature([GeofenceRuleSet, GeofencingSettings]), BuildingsModule, GeofencesModule, PositionsModule],
  controllers: [GeofencingRulesController, GeofencingQueriesController, GeofenceEventsController, GeofenceSimulationController, GeofenceOccupancyController],
  providers: [
    { provide: ENGINE_CLOCK, useValue: systemClock },
    GeofencingRulesService,
    GeofenceRulesRepository,
    GeofenceEventLogRepository,
    GeofencingQueriesService,
    FloorFenceCache,
    LiveFencesRepository,
    GeofenceStateRepository,
    GeofenceEventRecorder,
    GeofenceEventPort,
    GeofenceEvaluator,
    GeofenceEventLog,
    GeofenceDeadlineSweeper,
    GeofenceOccupancyService,
    GeofenceOccupancyRepository,
    GeofenceSimulation,
    GeofenceEventRetention,
    GeofenceEventRetentionRepository,
  ],
  exports: [ENGINE_CLOCK, GeofencingRulesService, FloorFenceCache, GeofenceEvaluator, GeofenceEventRecorder, GeofenceEventLog, GeofenceEventLogRepository, GeofenceEventPort],
})
export class GeofencingModule {}
