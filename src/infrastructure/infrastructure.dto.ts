import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsNumber, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { MAX_INTEGER_ID } from '../common/http/params';
import { IntegerFromString } from '../common/validation/transforms';
import { Nullable, Optional, PartialUpdate } from '../common/validation/optional';

const FINITE = { allowNaN: false, allowInfinity: false };

export const TRANSMITTER_KINDS = ['wifi', 'ble'] as const;
export type TransmitterType = (typeof TRANSMITTER_KINDS)[number];

/** `AA-BB-CC-DD-EE-FF`, `aa:bb:…` or `aabbccddeeff` become `aa:bb:cc:dd:ee:ff`; anything else is left for the validator. */
export function normalizeBssid(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const hex = value.trim().toLowerCase();
  const compact = /^[0-9a-f]{2}([:-]?)[0-9a-f]{2}(?:\1[0-9a-f]{2}){4}$/.test(hex) ? hex.replace(/[:-]/g, '') : null;
  return compact ? compact.match(/../g)!.join(':') : value;
}

export const BSSID = /^[0-9a-f]{2}(:[0-9a-f]{2}){5}$/;
export const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const LowerCase = () => Transform(({ value }) => (typeof value === 'string' ? value.trim().toLowerCase() : value));

/** Where a transmitter is: floor `x`/`y` metres or `lat`/`lng` (lat/lng wins when both are sent). */
export class TransmitterPositionDto {
  @ApiProperty({ example: 36495 })
  @IntegerFromString()
  @IsInt()
  @Min(1)
  @Max(MAX_INTEGER_ID)
  floor_id: number;

  @ApiPropertyOptional({ description: 'Floor metres along the building width' })
  @Optional()
  @IsNumber(FINITE)
  @Min(-100_000)
  @Max(100_000)
  x?: number;

  @ApiPropertyOptional({ description: 'Floor metres along the building length' })
  @Optional()
  @IsNumber(FINITE)
  @Min(-100_000)
  @Max(100_000)
  y?: number;

  @ApiPropertyOptional({ minimum: -90, maximum: 90 })
  @Optional()
  @IsNumber(FINITE)
  @Min(-90)
  @Max(90)
  lat?: number;

  @ApiPropertyOptional({ minimum: -180, maximum: 180 })
  @Optional()
  @IsNumber(FINITE)
  @Min(-180)
  @Max(180)
  lng?: number;
}

export class WifiInputDto extends TransmitterPositionDto {
  @ApiProperty({ example: 'a4:5e:60:e8:1f:01', description: 'Any case; `-` or no separator accepted; stored as lower-case `xx:xx:xx:xx:xx:xx`' })
  @Transform(({ value }) => normalizeBssid(value))
  @IsString()
  @Matches(BSSID, { message: 'bssid must look like xx:xx:xx:xx:xx:xx (hexadecimal)' })
  bssid: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 255, example: 'Office' })
  @Nullable()
  @IsString()
  @MaxLength(255)
  ssid?: string | null;

  @ApiPropertyOptional({ nullable: true, type: Number, description: 'MHz', example: 2437 })
  @Nullable()
  @IsInt()
  @Min(1)
  @Max(100_000)
  frequency?: number | null;
}

export class BleInputDto extends TransmitterPositionDto {
  @ApiProperty({ example: 'f7826da6-4fa2-4e98-8024-bc5b71e0893e', description: 'Proximity UUID, any case; stored lower case' })
  @LowerCase()
  @IsString()
  @Matches(UUID_TEXT, { message: 'uuid must be a UUID (8-4-4-4-12 hexadecimal digits)' })
  uuid: string;

  @ApiProperty({ minimum: 0, maximum: 65535 })
  @IsInt()
  @Min(0)
  @Max(65535)
  major: number;

  @ApiProperty({ minimum: 0, maximum: 65535 })
  @IsInt()
  @Min(0)
  @Max(65535)
  minor: number;

  @ApiPropertyOptional({
    nullable: true,
    type: Number,
    minimum: -100,
    maximum: 20,
    description: 'dBm: the calibrated RSSI at 1 m (e.g. −59), or the radiated power when above −30 (e.g. 0 or +4)',
  })
  @Nullable()
  @IsInt()
  @Min(-100)
  @Max(20)
  tx_power?: number | null;

  @ApiPropertyOptional({ nullable: true, type: Number, minimum: 0, maximum: 100, description: 'Percent' })
  @Nullable()
  @IsInt()
  @Min(0)
  @Max(100)
  battery?: number | null;
}

export class UpdateWifiDto extends PartialUpdate(WifiInputDto) {}
export class UpdateBleDto extends PartialUpdate(BleInputDto) {}

/** The query of a building's placed transmitters (beacons and access points, gateways): the building, optionally one floor. */
export class BuildingFloorQuery {
  @ApiProperty({ example: 5962 })
  @IntegerFromString()
  @IsInt()
  @Min(1)
  @Max(MAX_INTEGER_ID)
  building_id: number;

  @ApiPropertyOptional()
  @Optional()
  @IntegerFromString()
  @IsInt()
  @Min(1)
  @Max(MAX_INTEGER_ID)
  floor_id?: number;
}

export class InfrastructureQuery extends BuildingFloorQuery {
  @ApiPropertyOptional({ enum: TRANSMITTER_KINDS })
  @Optional()
  @IsIn(TRANSMITTER_KINDS)
  type?: TransmitterType;
}

export class ReplaceInfrastructureQuery {
  @ApiProperty({ example: 5962 })
  @IntegerFromString()
  @IsInt()
  @Min(1)
  @Max(MAX_INTEGER_ID)
  building_id: number;

  @ApiPropertyOptional({ enum: TRANSMITTER_KINDS, description: 'Replace only this kind; the other is left as it is' })
  @Optional()
  @IsIn(TRANSMITTER_KINDS)
  type?: TransmitterType;
}

export class ReplaceInfrastructureBodyDto {
  @ApiPropertyOptional({ type: [WifiInputDto], description: 'Required unless type=ble' }) wifi?: WifiInputDto[];
  @ApiPropertyOptional({ type: [BleInputDto], description: 'Required unless type=wifi' }) ble?: BleInputDto[];
}

abstract class PlacedResponseDto {
  @ApiProperty() id: number;
  @ApiProperty() floor_id: number;
  @ApiProperty() lat: number;
  @ApiProperty() lng: number;
  @ApiProperty() x: number;
  @ApiProperty() y: number;
  @ApiProperty({ example: '2020-05-08T10:26:34.801+00:00' }) created_at: string;
  @ApiProperty({ example: '2020-05-08T10:26:34.801+00:00' }) updated_at: string;
}

export class WifiResponseDto extends PlacedResponseDto {
  @ApiProperty({ example: 'a4:5e:60:e8:1f:01' }) bssid: string;
  @ApiProperty() ssid: string;
  @ApiProperty({ nullable: true, type: Number }) frequency: number | null;
}

export class BleResponseDto extends PlacedResponseDto {
  @ApiProperty() uuid: string;
  @ApiProperty() major: number;
  @ApiProperty() minor: number;
  @ApiProperty({ nullable: true, type: Number }) tx_power: number | null;
  @ApiProperty({ nullable: true, type: Number }) battery: number | null;
}

export class InfrastructureResponseDto {
  @ApiProperty() building_id: number;
  @ApiProperty({ type: [String], description: "UUIDs of the building's beacons and of its beacons_uuids custom field, lower case, sorted" })
  beacon_uuids: string[];
  @ApiProperty({ type: [WifiResponseDto] }) wifi: WifiResponseDto[];
  @ApiProperty({ type: [BleResponseDto] }) ble: BleResponseDto[];
}
