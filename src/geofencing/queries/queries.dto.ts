import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsNumber, Max, Min } from 'class-validator';
import { MAX_INTEGER_ID } from '../../common/http/params';
import { IntegerFromString } from '../../common/validation/transforms';
import { Optional } from '../../common/validation/optional';

/** A decimal number from a query string; anything else is left for the validators to refuse. */
const NumberFromString = () => Transform(({ value }) => (typeof value === 'string' && /^\s*-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(value) ? Number(value) : value));

export const MAX_ACCURACY_M = 10_000;
export const MAX_EVALUATE_POINTS = 1000;

export class ContainsQuery {
  @ApiProperty({ minimum: -90, maximum: 90, example: 42.8723 })
  @NumberFromString()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(-90)
  @Max(90)
  lat: number;

  @ApiProperty({ minimum: -180, maximum: 180, example: -8.5631 })
  @NumberFromString()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(-180)
  @Max(180)
  lng: number;

  @ApiProperty({ example: 11916 })
  @IntegerFromString()
  @IsInt()
  @Min(1)
  @Max(MAX_INTEGER_ID)
  floor_id: number;

  @ApiPropertyOptional({ minimum: 0, maximum: MAX_ACCURACY_M, description: 'Metres; the radius is max(0.5, accuracy_factor × accuracy)', example: 3.4 })
  @Optional()
  @NumberFromString()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(MAX_ACCURACY_M)
  accuracy?: number;
}

export class EvaluatePointDto {
  @ApiProperty({ minimum: -90, maximum: 90 }) lat: number;
  @ApiProperty({ minimum: -180, maximum: 180 }) lng: number;
  @ApiProperty() floor_id: number;
  @ApiPropertyOptional({ minimum: 0, maximum: MAX_ACCURACY_M }) accuracy?: number | null;
}

export class EvaluateBodyDto {
  @ApiProperty({ type: [EvaluatePointDto], minItems: 1, maxItems: MAX_EVALUATE_POINTS }) points: EvaluatePointDto[];
}

export class FenceMatchDto {
  @ApiProperty({ format: 'uuid' }) geofence_id: string;
  @ApiProperty() name: string;
  @ApiProperty() code: string;
  @ApiProperty({ enum: ['inside', 'possibly_inside'] }) classification: string;
  @ApiProperty({ description: 'Share of the accuracy disk inside the fence, 0 to 1' }) overlap: number;
  @ApiProperty({ description: 'Signed distance from the point to the edge in metres: negative inside the fence' }) distance_to_edge_m: number;
}

export class ContainsResponseDto {
  @ApiProperty({ type: [FenceMatchDto] }) inside: FenceMatchDto[];
  @ApiProperty({ type: [FenceMatchDto] }) possibly_inside: FenceMatchDto[];
}

export class EvaluateResponseDto {
  @ApiProperty({ type: [ContainsResponseDto], description: 'One answer per point, in the order sent' }) results: ContainsResponseDto[];
}
