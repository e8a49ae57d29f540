import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsNumber, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { MAX_INTEGER_ID } from '../common/http/params';
import { IntegerFromString } from '../common/validation/transforms';
import { Nullable, Optional, PartialUpdate } from '../common/validation/optional';
import { GATEWAY_FORMATS, GatewayFormat, normaliseHardwareId } from './gateway-formats';
import { BuildingFloorQuery, TransmitterPositionDto } from './infrastructure.dto';

/** A MAC in any case and with `:`, `-` or no separators becomes `aabbccddeeff`; a node name is lower-cased; anything else is left for the validator. */
const HardwareId = () => Transform(({ value }) => (typeof value === 'string' ? (normaliseHardwareId(value) ?? value) : value));
export const HARDWARE_ID = /^[a-z0-9._:@~-]{1,128}$/;

export class GatewayInputDto extends TransmitterPositionDto {
  @ApiPropertyOptional({ example: 5962, description: "The floor's building; when sent it must be the floor's" })
  @Optional()
  @IntegerFromString()
  @IsInt()
  @Min(1)
  @Max(MAX_INTEGER_ID)
  building_id?: number;

  @ApiProperty({
    example: 'aa:cc:ee:00:11:22',
    description: 'The MAC (any case, `:` or `-` or no separators; stored as `aaccee001122`) or the node name (ESPresense room) the messages carry; unique in the organization',
  })
  @HardwareId()
  @IsString()
  @Matches(HARDWARE_ID, { message: 'hardware_id must be a MAC or a name of 1-128 of a-z 0-9 . _ : @ ~ -' })
  hardware_id: string;

  @ApiProperty({ enum: GATEWAY_FORMATS, description: 'What the gateway sends: espresense (MQTT only), ruuvi, minew, cartograph' })
  @IsIn(GATEWAY_FORMATS)
  format: GatewayFormat;

  @ApiPropertyOptional({ maxLength: 255, example: 'Corridor 2, north' })
  @Optional()
  @IsString()
  @MaxLength(255)
  name?: string;

  @ApiPropertyOptional({ nullable: true, type: Number, minimum: 0, maximum: 100, description: 'Metres above the floor (null: not known)', example: 2.8 })
  @Nullable()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(100)
  height_m?: number | null;
}

export class UpdateGatewayDto extends PartialUpdate(GatewayInputDto) {}

export class GatewaysQuery extends BuildingFloorQuery {}

export class GatewayResponseDto {
  @ApiProperty() id: number;
  @ApiProperty() building_id: number;
  @ApiProperty() floor_id: number;
  @ApiProperty() lat: number;
  @ApiProperty() lng: number;
  @ApiProperty() x: number;
  @ApiProperty() y: number;
  @ApiProperty({ nullable: true, type: Number }) height_m: number | null;
  @ApiProperty({ example: 'aaccee001122' }) hardware_id: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: GATEWAY_FORMATS }) format: GatewayFormat;
  @ApiProperty({ example: '2020-05-08T10:26:34.801+00:00' }) created_at: string;
  @ApiProperty({ example: '2020-05-08T10:26:34.801+00:00' }) updated_at: string;
}

export class GatewayLimitDto {
  @ApiProperty({ enum: ['message_size', 'batch_records', 'message_rate', 'connections'], description: 'The limit a message or connection exceeded' }) name: string;
  @ApiProperty({ example: '2020-05-08T10:26:34.801+00:00' }) at: string;
}

export class GatewayHealthDto {
  @ApiProperty() gateway_id: number;
  @ApiProperty() hardware_id: string;
  @ApiProperty({ nullable: true, type: String, description: 'The last message from the gateway, understood or not' }) last_seen_at: string | null;
  @ApiProperty({ description: 'No message for 5 minutes (or never, 5 minutes after it was registered)' }) silent: boolean;
  @ApiProperty({ description: 'Messages per second over about the last minute' }) messages_per_second: number;
  @ApiProperty({ description: 'Distinct tags heard in the last minute' }) tags_heard: number;
  @ApiProperty({ description: 'Messages received since the gateway was first heard' }) messages: number;
  @ApiProperty({ description: 'Messages not understood at all (refused whole)' }) messages_not_understood: number;
  @ApiProperty({ description: 'Records of understood messages that were dropped (a bad RSSI, a key that is not a MAC)' }) records_not_understood: number;
  @ApiProperty({ nullable: true, type: String, description: 'Why the last message or record was not understood' }) last_reason: string | null;
  @ApiProperty({ nullable: true, type: String }) last_reason_at: string | null;
  @ApiProperty({ nullable: true, type: GatewayLimitDto, description: 'The last limit a message exceeded, and when' }) last_limit: GatewayLimitDto | null;
  @ApiProperty({ description: 'Observations of registered tags stored' }) observations_stored: number;
  @ApiProperty({ description: 'Observations already stored from a redelivered message (not stored again)' }) observations_duplicate: number;
  @ApiProperty({ description: 'Observations of advertisers that are no tag of the organization: counted, never stored' }) unknown_advertisers: number;
}

export class GatewayIngestResponseDto {
  @ApiProperty({ description: 'Observations of registered tags now stored' }) stored: number;
  @ApiProperty({ description: 'Observations already stored from an earlier delivery of the same message' }) duplicates: number;
  @ApiProperty({ description: 'Observations of advertisers that are no tag of the organization (counted, not stored)' }) unknown: number;
  @ApiProperty({ description: 'Records of the message that were not understood' }) rejected: number;
  @ApiProperty({ nullable: true, type: String, description: 'Why the last record was not understood' }) last_reason: string | null;
}
