import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsDefined, IsIn, IsISO8601 } from 'class-validator';
import { Optional } from '../../common/validation/optional';
import { CELL_SIZES } from './heatmap-grid';

export class HeatmapQuery {
  @ApiProperty({ description: 'ISO 8601 instant: fixes at or after it', example: '2026-11-01T00:00:00Z' })
  @IsDefined()
  @IsISO8601({ strict: true })
  from: string;

  @ApiProperty({ description: 'ISO 8601 instant: fixes before it', example: '2026-12-01T00:00:00Z' })
  @IsDefined()
  @IsISO8601({ strict: true })
  to: string;

  @ApiPropertyOptional({ enum: CELL_SIZES, default: 2, description: 'Side of a grid cell, in metres' })
  @Optional()
  @Transform(({ value }) => (typeof value === 'string' && /^\d+(\.\d+)?$/.test(value) ? Number(value) : value))
  @IsIn(CELL_SIZES as unknown as number[])
  cell_size?: number;
}

export class HeatmapCellDto {
  @ApiProperty({ description: "The cell's centre, floor metres (x along the building's width)" }) x: number;
  @ApiProperty({ description: "The cell's centre, floor metres (y along the building's length)" }) y: number;
  @ApiProperty() lat: number;
  @ApiProperty() lng: number;
  @ApiProperty({ description: 'Fixes in the cell during the range' }) count: number;
}

export class HeatmapResponseDto {
  @ApiProperty() floor_id: number;
  @ApiProperty() building_id: number;
  @ApiProperty({ example: '2026-11-01T00:00:00.000+00:00' }) from: string;
  @ApiProperty({ example: '2026-12-01T00:00:00.000+00:00' }) to: string;
  @ApiProperty({ example: 2 }) cell_size: number;
  @ApiProperty({ description: 'Fixes counted (with floor coordinates) in the range' }) total: number;
  @ApiProperty({ description: 'The largest count of a cell' }) max: number;
  @ApiProperty({ type: [HeatmapCellDto], description: 'Cells with at least one fix, row by row' }) cells: HeatmapCellDto[];
}
