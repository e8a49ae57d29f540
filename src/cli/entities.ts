import { ApiKey } from '../auth/api-keys/api-key.entity';
import { LoginFailure } from '../auth/login-failure.entity';
import { AuthSession } from '../auth/sessions/auth-session.entity';
import { RefreshToken } from '../auth/sessions/refresh-token.entity';
import { Building } from '../cartography/buildings/building.entity';
import { Floor } from '../cartography/floors/floor.entity';
import { Geofence } from '../cartography/geofences/geofence.entity';
import { GeofenceRuleSet } from '../geofencing/rules/geofence-rule-set.entity';
import { GeofencingSettings } from '../geofencing/rules/geofencing-settings.entity';
import { Image } from '../images/image.entity';
import { BleBeacon } from '../infrastructure/ble-beacon.entity';
import { WifiAccessPoint } from '../infrastructure/wifi-access-point.entity';
import { ReferencePoint } from '../infrastructure/reference-point.entity';
import { RadioModelRecord } from '../infrastructure/radio-model.entity';
import { PathGraph } from '../cartography/paths/path-graph.entity';
import { PoiCategory } from '../cartography/poi-categories/poi-category.entity';
import { Poi } from '../cartography/pois/poi.entity';
import { AuditEvent } from '../audit/audit-event.entity';
import { GroupMember } from '../users/groups/group-member.entity';
import { Group } from '../users/groups/group.entity';
import { UserBuilding } from '../users/user-building.entity';
import { Organization } from '../organizations/organization.entity';
import { User } from '../users/user.entity';
import { Device } from '../devices/device.entity';
import { PositionRecord } from '../positions/position-record.entity';
import { WebhookDelivery, WebhookDeliveryAttempt } from '../delivery/webhooks/webhook-delivery.entity';
import { WebhookEndpoint } from '../delivery/webhooks/webhook-endpoint.entity';

/** Every entity, listed once for the app, the migration CLI and the tests. */
export const ENTITIES = [
  Organization,
  User,
  ApiKey,
  AuthSession,
  RefreshToken,
  LoginFailure,
  Building,
  Floor,
  Geofence,
  Image,
  PoiCategory,
  Poi,
  PathGraph,
  UserBuilding,
  Group,
  GroupMember,
  AuditEvent,
  GeofenceRuleSet,
  GeofencingSettings,
  WebhookEndpoint,
  WebhookDelivery,
  WebhookDeliveryAttempt,
  WifiAccessPoint,
  BleBeacon,
  ReferencePoint,
  RadioModelRecord,
  Device,
  PositionRecord,
];
