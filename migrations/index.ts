import { Foundation1763780000000 } from './1763780000000-Foundation';
import { Cartography1763790000000 } from './1763790000000-Cartography';
import { PoisPathsImages1763800000000 } from './1763800000000-PoisPathsImages';
import { UsersGroupsAudit1763810000000 } from './1763810000000-UsersGroupsAudit';
import { BuildingRevisions1763820000000 } from './1763820000000-BuildingRevisions';
import { IdempotencyKeys1763830000000 } from './1763830000000-IdempotencyKeys';
import { RealtimePositions1763840000000 } from './1763840000000-RealtimePositions';
import { PositioningKeysReadable1763850000000 } from './1763850000000-PositioningKeysReadable';
import { Infrastructure1763860000000 } from './1763860000000-Infrastructure';
import { GeofencingRules1763870000000 } from './1763870000000-GeofencingRules';
import { WebhookEndpoints1763880000000 } from './1763880000000-WebhookEndpoints';
import { WebhookDeliveries1763890000000 } from './1763890000000-WebhookDeliveries';
import { GeofenceEvents1763900000000 } from './1763900000000-GeofenceEvents';
import { LiveStreams1763913000000 } from './1763913000000-LiveStreams';
import { InfrastructureRevisions1763940000000 } from './1763940000000-InfrastructureRevisions';
import { PositionRollups1763960000000 } from './1763960000000-PositionRollups';
import { StreamLeases1763975000000 } from './1763975000000-StreamLeases';
import { WorkerHeartbeats1763985000000 } from './1763985000000-WorkerHeartbeats';
import { RadioModels1763991000000 } from './1763991000000-RadioModels';
import { HeatmapDays1763991300000 } from './1763991300000-HeatmapDays';
import { DeviceIndexesThatStay1764000000000 } from './1764000000000-DeviceIndexesThatStay';
import { DeviceTracks1764100000000 } from './1764100000000-DeviceTracks';
import { FilteredPositions1764200000000 } from './1764200000000-FilteredPositions';
import { PathConnectors1764300000000 } from './1764300000000-PathConnectors';
import { PathRouteSettings1764300100000 } from './1764300100000-PathRouteSettings';
import { DeviceNavigations1764300200000 } from './1764300200000-DeviceNavigations';
import { Gateways1764400000000 } from './1764400000000-Gateways';
import { TagWindows1764400200000 } from './1764400200000-TagWindows';

/** Every migration, in order. Listed explicitly so the app, the CLI and the tests load the same set. */
export const MIGRATIONS = [
  Foundation1763780000000,
  Cartography1763790000000,
  PoisPathsImages1763800000000,
  UsersGroupsAudit1763810000000,
  BuildingRevisions1763820000000,
  IdempotencyKeys1763830000000,
  RealtimePositions1763840000000,
  PositioningKeysReadable1763850000000,
  Infrastructure1763860000000,
  GeofencingRules1763870000000,
  WebhookEndpoints1763880000000,
  WebhookDeliveries1763890000000,
  GeofenceEvents1763900000000,
  LiveStreams1763913000000,
  InfrastructureRevisions1763940000000,
  PositionRollups1763960000000,
  StreamLeases1763975000000,
  WorkerHeartbeats1763985000000,
  RadioModels1763991000000,
  HeatmapDays1763991300000,
  DeviceIndexesThatStay1764000000000,
  DeviceTracks1764100000000,
  FilteredPositions1764200000000,
  PathConnectors1764300000000,
  PathRouteSettings1764300100000,
  DeviceNavigations1764300200000,
  Gateways1764400000000,
  TagWindows1764400200000,
];
