import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsNumber, IsObject, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { MAX_INTEGER_ID } from '../../common/http/params';
import { IntegerFromString } from '../../common/validation/transforms';
import { Nullable, Optional } from '../../common/validation/optional';
import { CONNECTOR_TYPES, type ConnectorType } from './router';

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

export class PathsResponseDto {
  @ApiProperty() building_id: number;
  @ApiProperty({ type: [PathNodeDto] }) nodes: PathNodeDto[];
  @ApiProperty({ type: [PathLinkDto] }) links: PathLinkDto[];
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
