import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsDefined, IsObject, IsNotEmpty, IsNumber, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { CustomFieldDto } from '../../common/custom-fields';
import { LocationDto } from '../../common/location.dto';
import { BooleanFromString, Trim } from '../../common/validation/transforms';
import { FloorResponseDto } from '../floors/floors.dto';
import { GeofenceResponseDto } from '../geofences/geofences.dto';
import { PathLinkDto, PathNodeDto } from '../paths/paths.dto';
import { PoiResponseDto } from '../pois/pois.dto';
import { Optional, PartialUpdate } from '../../common/validation/optional';
import { BoundedRichText } from '../../common/html/rich-text';

const FINITE = { allowNaN: false, allowInfinity: false };

export class DimensionsDto {
  @ApiProperty({ example: 120.5, description: 'Metres' })
  @IsNumber(FINITE)
  @Min(0)
  @Max(100_000)
  width: number;

  @ApiProperty({ example: 80, description: 'Metres' })
  @IsNumber(FINITE)
  @Min(0)
  @Max(100_000)
  length: number;
}

export class CreateBuildingDto {
  @ApiProperty({ maxLength: 255, example: 'Headquarters' })
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name: string;

  @ApiPropertyOptional({ maxLength: 65535 })
  @Optional()
  @IsString()
  @MaxLength(65535)
  description?: string;

  @ApiPropertyOptional({ maxLength: 65535, description: 'HTML; sanitized on write' })
  @Optional()
  @IsString()
  @MaxLength(65535)
  @BoundedRichText()
  info?: string;

  @ApiProperty({ type: LocationDto, description: 'Centre of the building' })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => LocationDto)
  location: LocationDto;

  @ApiProperty({ type: DimensionsDto })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => DimensionsDto)
  dimensions: DimensionsDto;

  @ApiPropertyOptional({ description: 'Radians, counter-clockwise', default: 0 })
  @Optional()
  @IsNumber(FINITE)
  @Min(-2 * Math.PI)
  @Max(2 * Math.PI)
  rotation?: number;

  @ApiPropertyOptional({ type: [CustomFieldDto] })
  @Optional()
  @IsArray()
  @ArrayMaxSize(200)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => CustomFieldDto)
  custom_fields?: CustomFieldDto[];
}

export class UpdateBuildingDto extends PartialUpdate(CreateBuildingDto) {}

export class BuildingResponseDto {
  @ApiProperty({ example: 5962 }) id: number;
  @ApiProperty() name: string;
  @ApiProperty() description: string;
  @ApiProperty() info: string;
  @ApiProperty({ type: LocationDto }) location: LocationDto;
  @ApiProperty({ type: DimensionsDto }) dimensions: DimensionsDto;
  @ApiProperty() rotation: number;
  @ApiProperty({
    type: [LocationDto],
    minItems: 4,
    maxItems: 4,
    description:
      'The four corners of the building rectangle (location, dimensions, rotation), in the order of its floor plan: ' +
      '(x, y) = (0, 0), (width, 0), (width, length), (0, length); with rotation 0 that is south-west, south-east, north-east, north-west',
  })
  corners: LocationDto[];
  @ApiProperty({ type: [CustomFieldDto] }) custom_fields: CustomFieldDto[];
  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: 'The user who created it' }) user_uuid: string | null;
  @ApiProperty({ example: '2020-05-08T10:26:34.801+00:00' }) created_at: string;
  @ApiProperty({ example: '2020-05-08T10:26:34.801+00:00' }) updated_at: string;
}

export class BuildingDetailResponseDto extends BuildingResponseDto {
  @ApiProperty({ type: [FloorResponseDto] }) floors: FloorResponseDto[];
  @ApiProperty({ type: [PoiResponseDto] }) indoor_pois: PoiResponseDto[];
  @ApiProperty({ type: [PoiResponseDto] }) outdoor_pois: PoiResponseDto[];
  @ApiProperty({ type: [GeofenceResponseDto], description: 'Geofences that are not deleted' }) geofences: GeofenceResponseDto[];
  @ApiProperty({ description: 'The wayfinding graph { nodes, links }, or {} when none is stored', type: 'object', additionalProperties: true })
  paths: { nodes?: PathNodeDto[]; links?: PathLinkDto[] };
  @ApiProperty({ type: 'array', items: { type: 'object' }, description: 'Always empty: events are not supported' }) events: never[];
}

/**
 * Deleting a building takes everything in it by default, as the hosted API does and as the
 * official client's `deleteBuilding` (which sends no query) expects; `cascade=false` asks
 * for a 409 instead while geofences, POIs or path nodes remain.
 */
export class BuildingDeleteQuery {
  @ApiPropertyOptional({
    default: true,
    description: 'true (default): delete its floors, POIs and paths, and soft-delete its live geofences; false: 409 while any remain',
  })
  @Optional()
  @BooleanFromString()
  @IsBoolean()
  cascade?: boolean;
}

export class CascadeQuery {
  @ApiPropertyOptional({ description: 'Also soft-delete the live geofences instead of answering 409' })
  @Optional()
  @BooleanFromString()
  @IsBoolean()
  cascade?: boolean;
}
