import { ApiProperty } from '@nestjs/swagger';
import { IsNumber, Max, Min } from 'class-validator';

const FINITE = { allowNaN: false, allowInfinity: false };

/** A WGS84 position in decimal degrees. */
export class LocationDto {
  @ApiProperty({ example: 42.8723597, minimum: -90, maximum: 90 })
  @IsNumber(FINITE)
  @Min(-90)
  @Max(90)
  lat: number;

  @ApiProperty({ example: -8.5633224, minimum: -180, maximum: 180 })
  @IsNumber(FINITE)
  @Min(-180)
  @Max(180)
  lng: number;
}
