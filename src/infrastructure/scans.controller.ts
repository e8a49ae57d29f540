import { Body, Controller, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiPayloadTooLargeResponse, ApiProperty, ApiTags, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { Access } from '../access/decorators/access.decorator';
import { CurrentPrincipal } from '../access/decorators/current-principal.decorator';
import { AccessScope } from '../access/permissions';
import { Principal } from '../access/principal';
import { ErrorResponseDto } from '../common/errors/error-response.dto';
import { BodyLimit } from '../common/http/body-limit';
import { IngestQuery } from '../positions/positions.dto';
import { ScanDto } from './scans.dto';
import { ScanIngestResult, SCANS_BODY_LIMIT_BYTES, ScansService } from './scans.service';

class ScanBatchDto {
  @ApiProperty({ type: [ScanDto], maxItems: 1000 }) scans: ScanDto[];
}

class RawEstimateDto {
  @ApiProperty() floor_id: number;
  @ApiProperty({ description: 'Floor metres' }) x: number;
  @ApiProperty({ description: 'Floor metres' }) y: number;
  @ApiProperty() lat: number;
  @ApiProperty() lng: number;
  @ApiProperty() accuracy: number;
}

class TrackOutcomeDto {
  @ApiProperty({
    enum: ['tracked', 'started', 'late', 'off'],
    description: 'tracked: the track went on; started: a new track (see reason); late: older than the track, stored as estimated; off: the building does not track',
  })
  status: string;
  @ApiProperty({ enum: ['first', 'silence', 'contradiction', 'building'], nullable: true, type: String }) reason: string | null;
}

class EstimatedFixDto {
  @ApiProperty({ description: 'Index of the scan in the request' }) index: number;
  @ApiProperty() device_id: string;
  @ApiProperty() time: string;
  @ApiProperty() building_id: number;
  @ApiProperty() floor_id: number;
  @ApiProperty() lat: number;
  @ApiProperty() lng: number;
  @ApiProperty({ description: 'Floor metres' }) x: number;
  @ApiProperty({ description: 'Floor metres' }) y: number;
  @ApiProperty({ description: 'Metres: the true position lies within it for about two fixes in three' }) accuracy: number;
  @ApiProperty({
    enum: ['fit', 'centroid', 'single', 'fingerprint', 'radio_map'],
    description:
      "fit: the path-loss model; centroid: its fallback; single: one transmitter heard; fingerprint: k-NN over the floor's reference points; radio_map: the radio map of the floor's reference points",
  })
  method: string;
  @ApiProperty() transmitters_used: number;
  @ApiProperty({ type: RawEstimateDto, description: 'The single-scan estimate; the fix itself is the tracked one where the building tracks' }) raw: RawEstimateDto;
  @ApiProperty({ type: TrackOutcomeDto }) track: TrackOutcomeDto;
}

class ScanIngestResponseDto {
  @ApiProperty() accepted: number;
  @ApiProperty({ type: [Object] }) rejected: object[];
  @ApiProperty({ type: [EstimatedFixDto] }) fixes: EstimatedFixDto[];
  @ApiProperty({ type: [Object], description: 'The geofence events these fixes fired' }) events: object[];
}

@ApiTags('Realtime')
@Controller('realtime')
export class ScansController {
  constructor(private readonly scans: ScansService) {}

  @Post('scans')
  @HttpCode(200)
  @BodyLimit(SCANS_BODY_LIMIT_BYTES)
  @Access(AccessScope.PositionsWrite)
  @ApiOperation({ summary: 'Report what devices heard (BLE beacons, wifi access points); the server estimates each position and stores it like a reported fix' })
  @ApiBody({ type: ScanBatchDto })
  @ApiOkResponse({ type: ScanIngestResponseDto })
  @ApiPayloadTooLargeResponse({
    type: ErrorResponseDto,
    description: 'Over 1000 scans, or a body over 3 MiB (1,000 scans of 30 readings are about 2.5 MB); the message names the limit',
  })
  @ApiUnprocessableEntityResponse({ type: ErrorResponseDto, description: 'No scan gave a stored position (the reasons are in `errors`)' })
  ingest(@CurrentPrincipal() principal: Principal, @Body() body: unknown, @Query() query: IngestQuery): Promise<ScanIngestResult> {
    return this.scans.ingest(principal, body, { returnEvents: query.return_events });
  }
}
