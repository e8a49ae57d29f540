import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsNumber, IsObject, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { MAX_INTEGER_ID } from '../../common/http/params';
import { IntegerFromString } from '../../common/validation/transforms';
import { Nullable, Optional } from '../../common/validation/optional';
import { CONNECTOR_TYPES, DEFAULT_ROUTE_SETTINGS, type ConnectorType } from './router';

const FINITE = { allowNaN: false, allowInfinity: false };
export const LINK_ORIGINS = ['both', 'source', 'target'] as const;
export const MAX_PATH_NODES = 20_000;

export class PathNodeInputDto {
  @ApiProperty({ description: 'Unique within the graph' })
  @IsInt()
  @Min(0)
  @Max(MAX_INTEGER_ID)
  id: number;

  @ApiProperty()
  @IntegerFromString()
  @IsInt()
  @Min(1)
  @Max(MAX_INTEGER_ID)
  floor_id: number;

  @ApiPropertyOptional({ description: 'Metres; give x/y or lat/lng, the other is derived' })
  @Optional()
  @IsNumber(FINITE)
  @Min(-100_000)
  @Max(100_000)
  x?: number;

  @ApiPropertyOptional()
  @Optional()
  @IsNumber(FINITE)
  @Min(-100_000)
  @Max(100_000)
  y?: number;

  @ApiPropertyOptional()
  @Optional()
  @IsNumber(FINITE)
  @Min(-90)
  @Max(90)
  lat?: number;

  @ApiPropertyOptional()
  @Optional()
  @IsNumber(FINITE)
  @Min(-180)
  @Max(180)
  lng?: number;
}

export class PathLinkInputDto {
  @ApiProperty({ description: 'Id of a node of the graph' })
  @IsInt()
  source: number;

  @ApiProperty({ description: 'Id of a node of the graph' })
  @IsInt()
  target: number;

  @ApiPropertyOptional({ enum: LINK_ORIGINS, default: 'both', description: 'Which way the link can be walked' })
  @Optional()
  @IsIn(LINK_ORIGINS)
  origin?: (typeof LINK_ORIGINS)[number];

  @ApiPropertyOptional({ type: [String], default: [] })
  @Optional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  tags?: string[];

  @ApiPropertyOptional({ default: true })
  @Optional()
  @IsBoolean()
  accessible?: boolean;

  @ApiPropertyOptional({
    enum: CONNECTOR_TYPES,
    nullable: true,
    default: null,
    description:
      'What a link between two floors is; null or left out: derived from its tags (stairs, lift, escalator, ramp…), else elevator when accessible, stairs when not. Only on a link between two floors',
  })
  @Nullable()
  @IsIn(CONNECTOR_TYPES)
  connector?: ConnectorType | null;
}

const SECONDS = { minimum: 0, maximum: 600 };

/** How directions over the building's paths are timed and snapped (issue 40); every field left out takes its default. */
export class RouteSettingsDto {
  @ApiPropertyOptional({
    default: DEFAULT_ROUTE_SETTINGS.snap_distance_m,
    minimum: 0.5,
    maximum: 100,
    description: 'Metres: an end farther than this from every usable link of its floor cannot be routed (422 end_unreachable)',
  })
  @Optional()
  @IsNumber(FINITE)
  @Min(0.5)
  @Max(100)
  snap_distance_m?: number;

  @ApiPropertyOptional({
    default: DEFAULT_ROUTE_SETTINGS.stairs_speed_factor,
    minimum: 0.05,
    maximum: 2,
    description: 'Walking speed on stairs relative to corridors (over their horizontal length)',
  })
  @Optional()
  @IsNumber(FINITE)
  @Min(0.05)
  @Max(2)
  stairs_speed_factor?: number;

  @ApiPropertyOptional({ default: DEFAULT_ROUTE_SETTINGS.stairs_s_per_floor, ...SECONDS, description: 'Seconds per storey on stairs' })
  @Optional()
  @IsNumber(FINITE)
  @Min(SECONDS.minimum)
  @Max(SECONDS.maximum)
  stairs_s_per_floor?: number;

  @ApiPropertyOptional({ default: DEFAULT_ROUTE_SETTINGS.elevator_wait_s, ...SECONDS, description: 'Seconds waited for a lift, once per ride' })
  @Optional()
  @IsNumber(FINITE)
  @Min(SECONDS.minimum)
  @Max(SECONDS.maximum)
  elevator_wait_s?: number;

  @ApiPropertyOptional({ default: DEFAULT_ROUTE_SETTINGS.elevator_s_per_floor, ...SECONDS, description: 'Seconds per storey in a lift' })
  @Optional()
  @IsNumber(FINITE)
  @Min(SECONDS.minimum)
  @Max(SECONDS.maximum)
  elevator_s_per_floor?: number;

  @ApiPropertyOptional({ default: DEFAULT_ROUTE_SETTINGS.escalator_s_per_floor, ...SECONDS, description: 'Seconds per storey on an escalator' })
  @Optional()
  @IsNumber(FINITE)
  @Min(SECONDS.minimum)
  @Max(SECONDS.maximum)
  escalator_s_per_floor?: number;

  @ApiPropertyOptional({
    default: DEFAULT_ROUTE_SETTINGS.ramp_speed_factor,
    minimum: 0.05,
    maximum: 2,
    description: 'Walking speed on a ramp between floors relative to corridors',
  })
  @Optional()
  @IsNumber(FINITE)
  @Min(0.05)
  @Max(2)
  ramp_speed_factor?: number;

  @ApiPropertyOptional({
    default: DEFAULT_ROUTE_SETTINGS.off_route_distance_m,
    minimum: 0.5,
    maximum: 100,
    description: 'Metres: a guided device (PUT /devices/{id}/navigation) farther than this from its route is off it',
  })
  @Optional()
  @IsNumber(FINITE)
  @Min(0.5)
  @Max(100)
  off_route_distance_m?: number;

  @ApiPropertyOptional({
    default: DEFAULT_ROUTE_SETTINGS.off_route_fixes,
    minimum: 1,
    maximum: 100,
    description: 'This many off-route fixes in a row route a guided device again from where it is',
  })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(100)
  off_route_fixes?: number;
}

export class ReplacePathsDto {
  @ApiProperty({ type: [PathNodeInputDto] })
  @IsArray()
  @ArrayMaxSize(MAX_PATH_NODES)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => PathNodeInputDto)
  nodes: PathNodeInputDto[];

  @ApiProperty({ type: [PathLinkInputDto] })
  @IsArray()
  @ArrayMaxSize(MAX_PATH_NODES * 4)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => PathLinkInputDto)
  links: PathLinkInputDto[];

  @ApiPropertyOptional({ type: RouteSettingsDto, description: 'How routes are timed and snapped; left out: the stored settings stay (a graph alone replaces only the graph)' })
  @Optional()
  @IsObject()
  @ValidateNested()
  @Type(() => RouteSettingsDto)
  settings?: RouteSettingsDto;
}

export class PathNodeDto {
  @ApiProperty() id: number;
  @ApiProperty() floor_id: number;
  @ApiProperty() x: number;
  @ApiProperty() y: number;
  @ApiProperty() lat: number;
  @ApiProperty() lng: number;
}

export class PathLinkDto {
  @ApiProperty() source: number;
  @ApiProperty() target: number;
  @ApiProperty({ enum: LINK_ORIGINS }) origin: string;
  @ApiProperty({ type: [String] }) tags: string[];
  @ApiProperty() accessible: boolean;
  @ApiProperty({ enum: CONNECTOR_TYPES, nullable: true, type: String, description: 'As given; null: derived from the tags' }) connector: ConnectorType | null;
}

export class RouteSettingsResponseDto {
  @ApiProperty() snap_distance_m: number;
  @ApiProperty() stairs_speed_factor: number;
  @ApiProperty() stairs_s_per_floor: number;
  @ApiProperty() elevator_wait_s: number;
  @ApiProperty() elevator_s_per_floor: number;
  @ApiProperty() escalator_s_per_floor: number;
  @ApiProperty() ramp_speed_factor: number;
  @ApiProperty() off_route_distance_m: number;
  @ApiProperty() off_route_fixes: number;
}

export class PathsResponseDto {
  @ApiProperty() building_id: number;
  @ApiProperty({ type: [PathNodeDto] }) nodes: PathNodeDto[];
  @ApiProperty({ type: [PathLinkDto] }) links: PathLinkDto[];
  @ApiProperty({ type: RouteSettingsResponseDto, description: 'How directions are timed and snapped: the values set, defaults for the others' }) settings: RouteSettingsResponseDto;
}

export class ListPathsQuery {
  @ApiPropertyOptional()
  @Optional()
  @IntegerFromString()
  @IsInt()
  @Min(1)
  @Max(MAX_INTEGER_ID)
  building_id?: number;
}
