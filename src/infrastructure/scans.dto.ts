import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsInt, IsNumber, IsObject, IsString, Matches, Max, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';
import { MAX_INTEGER_ID } from '../common/http/params';
import { Optional } from '../common/validation/optional';
import { IntegerFromString } from '../common/validation/transforms';
import { BSSID, normalizeBssid, UUID_TEXT } from './infrastructure.dto';

export const MAX_READINGS_PER_KIND = 500;

export class BleReadingDto {
  @ApiProperty() @Transform(({ value }) => (typeof value === 'string' ? value.trim().toLowerCase() : value)) @IsString() @Matches(UUID_TEXT) uuid: string;
  @ApiProperty() @IsInt() @Min(0) @Max(65535) major: number;
  @ApiProperty() @IsInt() @Min(0) @Max(65535) minor: number;
  @ApiProperty({ description: 'dBm' }) @IsNumber({ allowNaN: false, allowInfinity: false }) @Min(-150) @Max(20) rssi: number;
}

export class WifiReadingDto {
  @ApiProperty() @Transform(({ value }) => normalizeBssid(value)) @IsString() @Matches(BSSID) bssid: string;
  @ApiProperty({ description: 'dBm' }) @IsNumber({ allowNaN: false, allowInfinity: false }) @Min(-150) @Max(20) rssi: number;
}

/** One item of `POST /api/v1/realtime/scans`: what a device heard at a time (the documentation; `parse` checks the same rules by hand). */
export class ScanDto {
  @ApiProperty() @IsString() @MinLength(1) @MaxLength(255) device_id: string;
  @ApiProperty({ description: 'ISO 8601 or epoch milliseconds' }) time: string | number;
  @ApiPropertyOptional({ description: 'Omitted: the building whose transmitters the scan hears' })
  @Optional()
  @IntegerFromString()
  @IsInt()
  @Min(1)
  @Max(MAX_INTEGER_ID)
  building_id?: number;
  @ApiPropertyOptional({ type: [BleReadingDto] })
  @Optional()
  @IsArray()
  @ArrayMaxSize(MAX_READINGS_PER_KIND)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => BleReadingDto)
  ble?: BleReadingDto[];
  @ApiPropertyOptional({ type: [WifiReadingDto] })
  @Optional()
  @IsArray()
  @ArrayMaxSize(MAX_READINGS_PER_KIND)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => WifiReadingDto)
  wifi?: WifiReadingDto[];
}
