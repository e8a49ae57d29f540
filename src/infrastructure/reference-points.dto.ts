import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsInt, IsObject, Max, Min, ValidateNested } from 'class-validator';
import { MAX_INTEGER_ID } from '../common/http/params';
import { Optional, PartialUpdate } from '../common/validation/optional';
import { IntegerFromString } from '../common/validation/transforms';
import { TransmitterPositionDto } from './infrastructure.dto';
import { BleReadingDto, MAX_READINGS_PER_KIND, WifiReadingDto } from './scans.dto';

/** A scan taken at a known position: where (x/y floor metres or lat/lng) and what was heard there. */
export class ReferencePointInputDto extends TransmitterPositionDto {
  @ApiPropertyOptional({ type: [BleReadingDto], description: 'Beacons heard (at least one reading of either kind)' })
  @Optional()
  @IsArray()
  @ArrayMaxSize(MAX_READINGS_PER_KIND)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => BleReadingDto)
  ble?: BleReadingDto[];

  @ApiPropertyOptional({ type: [WifiReadingDto], description: 'Access points heard' })
  @Optional()
  @IsArray()
  @ArrayMaxSize(MAX_READINGS_PER_KIND)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => WifiReadingDto)
  wifi?: WifiReadingDto[];
}

export class UpdateReferencePointDto extends PartialUpdate(ReferencePointInputDto) {}

export class BuildingFloorQuery {
  @ApiProperty({ example: 5962 })
  @IntegerFromString()
  @IsInt()
  @Min(1)
  @Max(MAX_INTEGER_ID)
  building_id: number;

  @ApiPropertyOptional({ description: 'Only this floor' })
  @Optional()
  @IntegerFromString()
  @IsInt()
  @Min(1)
  @Max(MAX_INTEGER_ID)
  floor_id?: number;
}

class BleHeardDto {
  @ApiProperty() uuid: string;
  @ApiProperty() major: number;
  @ApiProperty() minor: number;
  @ApiProperty({ description: 'dBm' }) rssi: number;
}

class WifiHeardDto {
  @ApiProperty() bssid: string;
  @ApiProperty({ description: 'dBm' }) rssi: number;
}

export class ReferencePointResponseDto {
  @ApiProperty() id: number;
  @ApiProperty() floor_id: number;
  @ApiProperty({ description: 'Floor metres' }) x: number;
  @ApiProperty({ description: 'Floor metres' }) y: number;
  @ApiProperty() lat: number;
  @ApiProperty() lng: number;
  @ApiProperty({ type: [BleHeardDto] }) ble: BleHeardDto[];
  @ApiProperty({ type: [WifiHeardDto] }) wifi: WifiHeardDto[];
  @ApiProperty({ example: '2020-05-08T10:26:34.801+00:00' }) created_at: string;
  @ApiProperty({ example: '2020-05-08T10:26:34.801+00:00' }) updated_at: string;
}

class TransmitterOffsetDto {
  @ApiProperty({ enum: ['ble', 'wifi'] }) type: string;
  @ApiProperty() id: number;
  @ApiProperty({ description: 'dB the model adds to the registered reference RSSI (what the transmitter really sends at 1 m, less what is registered)' }) offset_db: number;
  @ApiProperty({ description: 'The calibrated RSSI at 1 m (dBm) the estimator uses' }) reference_rssi: number;
}

class CrossValidationDto {
  @ApiProperty({ description: 'Distinct reference positions and scans on the floor' }) points: number;
  @ApiProperty() scans: number;
  @ApiProperty({ nullable: true, type: Number, description: 'Leave-one-out median error of the path-loss model fitted from the references (metres)' }) model_median_error_m:
    number | null;
  @ApiProperty({ nullable: true, type: Number, description: 'The same for k-NN fingerprinting (null with fewer than 10 positions)' }) fingerprint_median_error_m: number | null;
  @ApiProperty({
    nullable: true,
    type: Number,
    description: 'The same for the radio map (null with fewer than 10 positions, or where the residuals at the reference points show no spatial structure: no map is built)',
  })
  radio_map_median_error_m: number | null;
}

class ExponentFitDto {
  @ApiProperty({
    enum: ['prior', 'fitted', 'unidentified'],
    description:
      "fitted: the scans tell the exponent; prior: they do not yet (too few, or n cannot be told from the transmitters' offsets): the prior's is kept; unidentified: they point outside 1.5-4.5 (they do not fit the path-loss model): the prior's is kept",
  })
  state: string;
  @ApiProperty({ nullable: true, type: String, description: 'Why not fitted; null when fitted' }) reason: string | null;
  @ApiProperty({ description: "The exponent's standard deviation" }) sd: number;
}

class WeakestRssiDto {
  @ApiProperty({ nullable: true, type: Number }) ble: number | null;
  @ApiProperty({ nullable: true, type: Number }) wifi: number | null;
}

class ScannerDto {
  @ApiProperty({ type: WeakestRssiDto, description: "The weakest reading of each kind the scans reported (dBm): about the scanners' sensitivity" }) weakest_rssi: WeakestRssiDto;
  @ApiProperty({ description: 'The most readings one scan reported' }) max_readings: number;
  @ApiProperty({ description: 'The share of scans with that many: near 1, the scanners keep their strongest max_readings' }) at_max_share: number;
}

export class FloorRadioModelDto {
  @ApiProperty() floor_id: number;
  @ApiProperty({
    enum: ['default', 'self_calibrated', 'reference_points', 'fingerprinting', 'radio_map'],
    description:
      "default: the prior (no evidence yet); self_calibrated: learnt from the scans the server saw; reference_points: the model fitted from the reference points; fingerprinting: k-NN over the reference points; radio_map: the model plus the reference points' residuals interpolated in space (the last two where cross-validation found them better)",
  })
  method: string;
  @ApiProperty({ description: 'Path-loss exponent n' }) exponent: number;
  @ApiProperty({ type: ExponentFitDto, description: 'Whether the scans tell the exponent, and how well' }) exponent_fit: ExponentFitDto;
  @ApiProperty({ nullable: true, type: ScannerDto, description: "What the self-calibration's scans say of their scanners; null before any" }) scanner: ScannerDto | null;
  @ApiProperty({ description: 'Shadowing σ (dB) per kind: the weights of the fit and the size of the accuracy', example: { ble: 4, wifi: 6 } }) shadowing_db: Record<
    string,
    number
  >;
  @ApiProperty({ description: 'Scans the running self-calibration rests on (the oldest count less beyond 20,000)' }) scans: number;
  @ApiProperty({ nullable: true, type: String, description: 'When the running self-calibration last changed' }) updated_at: string | null;
  @ApiProperty({ nullable: true, type: CrossValidationDto, description: 'What the reference points give; null without any' }) reference_points: CrossValidationDto | null;
  @ApiProperty({ type: [TransmitterOffsetDto] }) transmitters: TransmitterOffsetDto[];
}

export class RadioModelResponseDto {
  @ApiProperty() building_id: number;
  @ApiProperty({ type: [FloorRadioModelDto], description: 'One per floor with transmitters' }) floors: FloorRadioModelDto[];
}
