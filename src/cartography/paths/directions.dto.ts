import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsNumber, IsObject, IsString, Max, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';
import { MAX_INTEGER_ID } from '../../common/http/params';
import { Optional } from '../../common/validation/optional';
import { FloorCoordinatesDto } from './paths.dto';
import { ACCESSIBILITY_MODES, CONNECTOR_TYPES, type AccessibilityMode, type ConnectorType, type IndicationAction } from './router';

const FINITE = { allowNaN: false, allowInfinity: false };
const INDICATION_ACTIONS: IndicationAction[] = ['go_ahead', 'turn_left', 'turn_right', 'change_floor', 'arrive'];
export const MAX_SPEED_M_S = 10;
export const MAX_AVOID_FACTOR = 1000;

/** The fields a point and the ends share: a floor with x/y or lat/lng, or a POI. */
class DirectionsPointFields extends FloorCoordinatesDto {
  @ApiPropertyOptional({ description: 'With x/y or lat/lng: a floor of the building' })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(MAX_INTEGER_ID)
  floor_id?: number;

  @ApiPropertyOptional({ description: 'Instead of a point: a POI of the building (on a floor)' })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(MAX_INTEGER_ID)
  poi_id?: number;
}

/** Where a route starts: exactly one of a point, `poi_id` or `device_id`. */
export class DirectionsFromDto extends DirectionsPointFields {
  @ApiPropertyOptional({ description: "Instead of a point: the device's live position (its newest fix, at most POSITIONS_MAX_SEC_THRESHOLD seconds old)" })
  @Optional()
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  device_id?: string;
}

/** Where a route ends: exactly one of a point, `poi_id` or `poi_category_id` (the nearest POI of that category, in time). */
export class DirectionsToDto extends DirectionsPointFields {
  @ApiPropertyOptional({ description: "Instead of a point: the quickest to reach of the building's POIs of this category" })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(MAX_INTEGER_ID)
  poi_category_id?: number;
}

/** `POST /buildings/{id}/directions`. */
export class DirectionsRequestDto {
  @ApiProperty({ type: DirectionsFromDto, description: '{floor_id, x, y}, {floor_id, lat, lng}, {poi_id} or {device_id}' })
  @IsObject()
  @ValidateNested()
  @Type(() => DirectionsFromDto)
  from: DirectionsFromDto;

  @ApiProperty({ type: DirectionsToDto, description: '{floor_id, x, y}, {floor_id, lat, lng}, {poi_id} or {poi_category_id}' })
  @IsObject()
  @ValidateNested()
  @Type(() => DirectionsToDto)
  to: DirectionsToDto;

  @ApiPropertyOptional({
    enum: ACCESSIBILITY_MODES,
    default: 'CHOOSE_SHORTEST',
    description: 'ONLY_ACCESSIBLE never uses a link with accessible false; ONLY_NOT_ACCESSIBLE_FLOOR_CHANGES never an accessible floor link (lift or ramp)',
  })
  @Optional()
  @IsIn(ACCESSIBILITY_MODES)
  accessibility_mode?: AccessibilityMode;

  @ApiPropertyOptional({ default: false, description: 'The fewest floor changes first (one ride of a connector across floors is one), then the quickest' })
  @Optional()
  @IsBoolean()
  minimize_floor_changes?: boolean;

  @ApiPropertyOptional({ enum: CONNECTOR_TYPES, isArray: true, default: [], description: "Connector types whose links' time is multiplied by avoid_factor" })
  @Optional()
  @IsArray()
  @ArrayMaxSize(CONNECTOR_TYPES.length)
  @IsIn(CONNECTOR_TYPES, { each: true })
  avoid?: ConnectorType[];

  @ApiPropertyOptional({ enum: CONNECTOR_TYPES, isArray: true, default: [], description: 'Connector types never used' })
  @Optional()
  @IsArray()
  @ArrayMaxSize(CONNECTOR_TYPES.length)
  @IsIn(CONNECTOR_TYPES, { each: true })
  exclude?: ConnectorType[];

  @ApiPropertyOptional({ default: 10, minimum: 1, maximum: MAX_AVOID_FACTOR })
  @Optional()
  @IsNumber(FINITE)
  @Min(1)
  @Max(MAX_AVOID_FACTOR)
  avoid_factor?: number;

  @ApiPropertyOptional({ type: [String], default: [], description: 'When not empty: only links carrying one of these tags (any case)' })
  @Optional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  included_tags?: string[];

  @ApiPropertyOptional({ type: [String], default: [], description: 'Never a link carrying one of these tags (any case)' })
  @Optional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  excluded_tags?: string[];

  @ApiPropertyOptional({ default: 1.2, description: 'Walking speed, metres per second', minimum: 0.05, maximum: MAX_SPEED_M_S })
  @Optional()
  @IsNumber(FINITE)
  @Min(0.05)
  @Max(MAX_SPEED_M_S)
  speed_m_s?: number;
}

export class RoutePointDto {
  @ApiProperty() floor_id: number;
  @ApiProperty({ description: 'Floor metres' }) x: number;
  @ApiProperty() y: number;
  @ApiProperty() lat: number;
  @ApiProperty() lng: number;
}

export class RouteEdgeDto {
  @ApiProperty({ description: 'Index into points' }) from: number;
  @ApiProperty({ description: 'Index into points' }) to: number;
  @ApiProperty({ description: 'Metres (horizontal, on a floor link)' }) distance: number;
  @ApiProperty({ description: 'The floor it starts on' }) floor_id: number;
  @ApiProperty({ enum: CONNECTOR_TYPES, nullable: true, type: String, description: 'null on a walk within a floor' }) connector: ConnectorType | null;
}

export class RouteSegmentDto {
  @ApiProperty() floor_id: number;
  @ApiProperty({ type: [RoutePointDto] }) points: RoutePointDto[];
}

export class RouteIndicationDto {
  @ApiProperty({ enum: INDICATION_ACTIONS }) action: IndicationAction;
  @ApiProperty({ description: 'Metres walked following it' }) distance: number;
  @ApiProperty() floor_id: number;
  @ApiProperty({ nullable: true, type: Number, description: 'The floor a change_floor leads to; null otherwise' }) next_floor_id: number | null;
  @ApiProperty({ example: 'Take the elevator to floor 2' }) text: string;
}

export class RouteGeoJsonDto {
  @ApiProperty({ enum: ['FeatureCollection'] }) type: 'FeatureCollection';
  @ApiProperty({
    description: 'One LineString Feature per part of the route on a floor ([lng, lat] coordinates), properties { floor_id }',
    type: 'array',
    items: { type: 'object' },
  })
  features: Array<Record<string, unknown>>;
}

export class DirectionsResponseDto {
  @ApiProperty({ description: 'Metres walked, the start and end snaps included' }) distance: number;
  @ApiProperty({ description: 'Seconds: walking at speed_m_s, floor changes by their type, a wait at lifts' }) duration: number;
  @ApiProperty({ type: RoutePointDto, description: 'Where the start snapped onto the paths' }) from: RoutePointDto;
  @ApiProperty({ type: RoutePointDto, description: 'Where the end snapped onto the paths' }) to: RoutePointDto;
  @ApiProperty({ nullable: true, type: Number, description: 'The POI reached, for a to of poi_id or poi_category_id; null for a point' }) to_poi_id: number | null;
  @ApiProperty({ type: [RoutePointDto] }) points: RoutePointDto[];
  @ApiProperty({ type: [RouteEdgeDto] }) edges: RouteEdgeDto[];
  @ApiProperty({ type: [RouteSegmentDto] }) segments: RouteSegmentDto[];
  @ApiProperty({ type: [RouteIndicationDto] }) indications: RouteIndicationDto[];
  @ApiProperty({ enum: CONNECTOR_TYPES, isArray: true, description: 'The avoided connector types the route still uses' }) avoided: ConnectorType[];
  @ApiProperty({ type: RouteGeoJsonDto }) geojson: RouteGeoJsonDto;
}
