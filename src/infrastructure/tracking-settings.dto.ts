import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsInt, Max, Min } from 'class-validator';
import { Optional } from '../common/validation/optional';

export const MAX_RESET_AFTER_SECONDS = 86_400;

/** `PUT /infrastructure/tracking`: some of a building's tracking settings (partial). */
export class UpdateTrackingSettingsDto {
  @ApiPropertyOptional({ description: 'Track positions from scans (a filter over each device’s scans); false places every scan on its own', example: true })
  @Optional()
  @IsBoolean()
  scans?: boolean;

  @ApiPropertyOptional({
    description:
      'Filter the positions devices report themselves (POST /realtime/positions): a Kalman filter over each device’s fixes, stored in their place. Off by default: the apps filter them already',
    example: false,
  })
  @Optional()
  @IsBoolean()
  positions?: boolean;

  @ApiPropertyOptional({
    description: 'A track starts afresh after this many seconds without a scan (or a filtered position)',
    example: 30,
    minimum: 1,
    maximum: MAX_RESET_AFTER_SECONDS,
  })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(MAX_RESET_AFTER_SECONDS)
  reset_after_seconds?: number;
}

export class TrackingSettingsResponseDto {
  @ApiProperty({ example: 5962 }) building_id: number;
  @ApiProperty({ description: 'Positions from scans are tracked', example: true }) scans: boolean;
  @ApiProperty({ description: 'Positions reported by the devices are filtered', example: false }) positions: boolean;
  @ApiProperty({ example: 30 }) reset_after_seconds: number;
  @ApiProperty({ description: 'Whether the building sets them (false: the defaults)', example: false }) custom: boolean;
}
