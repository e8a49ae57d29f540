import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsInt, IsNumber, IsObject, IsString, IsUUID, Max, MaxLength, Min, ValidateIf, ValidateNested } from 'class-validator';
import { CustomFieldDto } from '../../common/custom-fields';
import { MAX_INTEGER_ID } from '../../common/http/params';
import { IntegerFromString, Trim } from '../../common/validation/transforms';
import { Optional, PartialUpdate } from '../../common/validation/optional';

const FINITE = { allowNaN: false, allowInfinity: false };

export class CreateFloorDto {
  @ApiProperty({ example: 5962 })
  @IntegerFromString()
  @IsInt()
  @Min(1)
  @Max(MAX_INTEGER_ID)
  building_id: number;

  @ApiProperty({ example: 0, description: 'Level number; 0 is the ground floor' })
  @IsInt()
  @Min(-1000)
  @Max(1000)
  level: number;

  @ApiPropertyOptional({ example: 3.5, description: 'Metres' })
  @Optional()
  @IsNumber(FINITE)
  @Min(0)
  @Max(10_000)
  level_height?: number;

  @ApiPropertyOptional({ maxLength: 255, example: 'Ground floor' })
  @Optional()
  @Trim()
  @IsString()
  @MaxLength(255)
  name?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Id of an uploaded floor plan image; "" removes it' })
  @Optional()
  @IsString()
  @ValidateIf((_object, value) => value !== '')
  @IsUUID()
  map_id?: string;

  @ApiPropertyOptional({ description: 'Pixels per metre of the floor plan' })
  @Optional()
  @IsNumber(FINITE)
  @Min(0)
  scale?: number;

  @ApiPropertyOptional({ type: [CustomFieldDto] })
  @Optional()
  @IsArray()
  @ArrayMaxSize(200)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => CustomFieldDto)
  custom_fields?: CustomFieldDto[];
}

/** A floor stays in its building: `building_id` cannot change. */
export class UpdateFloorDto extends PartialUpdate(OmitType(CreateFloorDto, ['building_id'] as const)) {
  @ApiPropertyOptional({ description: 'Must be the current building if sent' })
  @Optional()
  @IntegerFromString()
  @IsInt()
  building_id?: number;
}

export class ListFloorsQuery {
  @ApiPropertyOptional()
  @Optional()
  @IntegerFromString()
  @IsInt()
  @Min(1)
  @Max(MAX_INTEGER_ID)
  building_id?: number;
}

export class FloorMapsDto {
  @ApiProperty({ nullable: true, type: Number }) scale: number | null;
  @ApiProperty({ description: 'Floor plan image id; "" when none' }) map_id: string;
  @ApiProperty({ description: 'Relative URL of the floor plan; "" when none', example: '/api/v1/images/3f1c' }) map_url: string;
}

export class FloorResponseDto {
  @ApiProperty() id: number;
  @ApiProperty() building_id: number;
  @ApiProperty() level: number;
  @ApiProperty({ nullable: true, type: Number }) level_height: number | null;
  @ApiProperty() name: string;
  @ApiProperty({ type: [CustomFieldDto] }) custom_fields: CustomFieldDto[];
  @ApiProperty({ type: FloorMapsDto }) maps: FloorMapsDto;
  @ApiProperty({ example: '2020-05-08T10:26:34.801+00:00' }) created_at: string;
  @ApiProperty({ example: '2020-05-08T10:26:34.801+00:00' }) updated_at: string;
}
