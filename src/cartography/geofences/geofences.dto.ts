import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsDefined, IsIn, IsInt, IsNotEmpty, IsObject, IsString, IsUUID, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { CustomFieldDto } from '../../common/custom-fields';
import { MAX_INTEGER_ID } from '../../common/http/params';
import { IdListQuery } from '../../common/http/list-query';
import { PageQuery } from '../../common/pagination/pagination';
import { BooleanFromString, IntegerFromString, Trim } from '../../common/validation/transforms';
import { Optional, PartialUpdate } from '../../common/validation/optional';
import { BoundedRichText } from '../../common/html/rich-text';

export const GEOFENCE_TYPES = ['POLYGON'] as const;

export class CreateGeofenceDto {
  @ApiProperty({ maxLength: 255, example: 'Loading bay' })
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name: string;

  @ApiProperty({ type: 'integer', example: 5962, description: 'The building id; a string of digits ("5962", as answers carry it) is accepted too' })
  @IntegerFromString()
  @IsInt()
  @Min(1)
  @Max(MAX_INTEGER_ID)
  building_id: number;

  @ApiProperty({ example: 11915 })
  @IntegerFromString()
  @IsInt()
  @Min(1)
  @Max(MAX_INTEGER_ID)
  floor_id: number;

  @ApiProperty({
    description: '[lat, lng] pairs of a closed ring (first = last), 4 to 10,000 pairs, no self-intersection',
    example: [
      [42.8723597, -8.5633224],
      [42.8724068, -8.5632165],
      [42.8723292, -8.5631467],
      [42.8723597, -8.5633224],
    ],
    type: 'array',
    items: { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2 },
  })
  // Present here; checked in depth by validateRing, which names the offending pair.
  @IsDefined()
  geometric: unknown;

  @ApiPropertyOptional({ maxLength: 255, example: 'geo4' })
  @Optional()
  @Trim()
  @IsString()
  @MaxLength(255)
  code?: string;

  @ApiPropertyOptional({ description: 'HTML; sanitized on write', maxLength: 65535 })
  @Optional()
  @IsString()
  @MaxLength(65535)
  @BoundedRichText()
  info?: string;

  @ApiPropertyOptional({ description: 'Same as info (used when info is absent)', maxLength: 65535 })
  @Optional()
  @IsString()
  @MaxLength(65535)
  @BoundedRichText()
  description?: string;

  @ApiPropertyOptional({ enum: GEOFENCE_TYPES, default: 'POLYGON' })
  @Optional()
  @IsIn(GEOFENCE_TYPES)
  type?: (typeof GEOFENCE_TYPES)[number];

  @ApiPropertyOptional({ type: [CustomFieldDto] })
  @Optional()
  @IsArray()
  @ArrayMaxSize(200)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => CustomFieldDto)
  custom_fields?: CustomFieldDto[];
}

export class UpdateGeofenceDto extends PartialUpdate(CreateGeofenceDto) {}

export class SearchGeofencesQuery extends PageQuery {
  @ApiPropertyOptional({ type: [Number], description: 'Comma-separated or repeated' })
  @Optional()
  @IdListQuery()
  building_ids?: number[];

  @ApiPropertyOptional({ type: [Number], description: 'Comma-separated or repeated' })
  @Optional()
  @IdListQuery()
  floor_ids?: number[];

  @ApiPropertyOptional({ description: 'Substring of the name, case-insensitive' })
  @Optional()
  @IsString()
  @MaxLength(255)
  name?: string;

  @ApiPropertyOptional()
  @Optional()
  @IsString()
  @MaxLength(255)
  code?: string;

  @ApiPropertyOptional({ default: false, description: 'true: only deleted geofences; false: only live ones' })
  @Optional()
  @BooleanFromString()
  @IsBoolean()
  deleted?: boolean;

  @ApiPropertyOptional({ format: 'uuid', description: "Sent by the official client; must be the caller's organization (another is 404)" })
  @Optional()
  @IsUUID()
  organization_id?: string;
}

export class GeofenceResponseDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: '2020-05-08T10:26:34.801Z[UTC]' }) created_at: string;
  @ApiProperty({ example: '2020-05-08T10:26:34.801Z[UTC]' }) updated_at: string;
  @ApiProperty({ type: [CustomFieldDto] }) custom_fields: CustomFieldDto[];
  @ApiProperty() code: string;
  @ApiProperty() name: string;
  @ApiProperty({ format: 'uuid' }) organization_id: string;
  @ApiProperty() info: string;
  @ApiProperty({ description: 'Same as info' }) description: string;
  @ApiProperty({ enum: GEOFENCE_TYPES }) type: string;
  @ApiProperty({ type: 'array', items: { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2 } }) geometric: [number, number][];
  @ApiProperty() floor_id: number;
  @ApiProperty({ description: 'Same as floor_id' }) level_id: number;
  @ApiProperty({ example: '5962' }) building_id: string;
  @ApiProperty() deleted: boolean;
}
