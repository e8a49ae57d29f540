import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsDefined, IsIn, IsObject, IsInt, IsNotEmpty, IsNumber, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { CustomFieldDto } from '../../common/custom-fields';
import { MAX_INTEGER_ID } from '../../common/http/params';
import { IntegerFromString, Trim } from '../../common/validation/transforms';
import { LocationDto } from '../../common/location.dto';
import { Nullable, Optional, PartialUpdate } from '../../common/validation/optional';
import { BoundedRichText } from '../../common/html/rich-text';

const FINITE = { allowNaN: false, allowInfinity: false };

export class CartesiansDto {
  @ApiProperty({ description: 'Metres along the building width' })
  @IsNumber(FINITE)
  @Min(-100_000)
  @Max(100_000)
  x: number;

  @ApiProperty({ description: 'Metres along the building length' })
  @IsNumber(FINITE)
  @Min(-100_000)
  @Max(100_000)
  y: number;
}

export class PoiPositionInputDto {
  @ApiPropertyOptional({ nullable: true, type: Number, description: 'The floor; absent or null for an outdoor POI' })
  @Nullable()
  @IntegerFromString()
  @IsInt()
  @Min(1)
  @Max(MAX_INTEGER_ID)
  floor_id?: number | null;

  @ApiPropertyOptional({ type: LocationDto, description: 'Either georeferences or cartesians' })
  @Optional()
  @IsObject()
  @ValidateNested()
  @Type(() => LocationDto)
  georeferences?: LocationDto;

  @ApiPropertyOptional({ type: CartesiansDto, description: 'Used when georeferences are absent' })
  @Optional()
  @IsObject()
  @ValidateNested()
  @Type(() => CartesiansDto)
  cartesians?: CartesiansDto;

  @ApiPropertyOptional({ description: 'Metres' })
  @Optional()
  @IsNumber(FINITE)
  @Min(0)
  @Max(100_000)
  radius?: number;
}

export class CreatePoiDto {
  @ApiProperty({ example: 5962 })
  @IntegerFromString()
  @IsInt()
  @Min(1)
  @Max(MAX_INTEGER_ID)
  building_id: number;

  @ApiProperty({ maxLength: 255, example: 'Reception' })
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name: string;

  @ApiPropertyOptional({ description: 'HTML; sanitized into info, kept as sent in info_unsafe', maxLength: 65535 })
  @Optional()
  @IsString()
  @MaxLength(65535)
  @BoundedRichText()
  info?: string;

  @ApiPropertyOptional({ nullable: true, type: Number })
  @Nullable()
  @IntegerFromString()
  @IsInt()
  @Min(1)
  @Max(MAX_INTEGER_ID)
  category_id?: number | null;

  @ApiPropertyOptional({ type: [CustomFieldDto] })
  @Optional()
  @IsArray()
  @ArrayMaxSize(200)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => CustomFieldDto)
  custom_fields?: CustomFieldDto[];

  @ApiProperty({ type: PoiPositionInputDto })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => PoiPositionInputDto)
  position: PoiPositionInputDto;
}

export class UpdatePoiDto extends PartialUpdate(CreatePoiDto) {}

export const POI_TYPES = ['indoor', 'outdoor'] as const;

export class ListPoisQuery {
  @ApiPropertyOptional()
  @Optional()
  @IntegerFromString()
  @IsInt()
  @Min(1)
  @Max(MAX_INTEGER_ID)
  building_id?: number;

  @ApiPropertyOptional({ enum: POI_TYPES })
  @Optional()
  @IsIn(POI_TYPES)
  type?: (typeof POI_TYPES)[number];
}

export class PoiPositionDto {
  @ApiProperty({ nullable: true, type: Number }) floor_id: number | null;
  @ApiProperty() lat: number;
  @ApiProperty() lng: number;
  @ApiProperty() x: number;
  @ApiProperty() y: number;
  @ApiProperty({ type: LocationDto }) georeferences: LocationDto;
  @ApiProperty({ type: CartesiansDto }) cartesians: CartesiansDto;
  @ApiProperty({ nullable: true, type: Number }) radius: number | null;
}

export class PoiResponseDto {
  @ApiProperty() id: number;
  @ApiProperty() building_id: number;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'Sanitized HTML' }) info: string;
  @ApiProperty({ description: 'HTML as sent' }) info_unsafe: string;
  @ApiProperty({ nullable: true, type: Number }) category_id: number | null;
  @ApiProperty({ description: 'English name of the category; "" when none' }) category_name: string;
  @ApiProperty({ type: [CustomFieldDto] }) custom_fields: CustomFieldDto[];
  @ApiProperty({ enum: POI_TYPES }) type: string;
  @ApiProperty({ example: '2020-05-08T10:26:34.801+00:00' }) created_at: string;
  @ApiProperty({ example: '2020-05-08T10:26:34.801+00:00' }) updated_at: string;
  @ApiProperty({ type: PoiPositionDto }) position: PoiPositionDto;
}
