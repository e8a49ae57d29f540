import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsISO8601,
  IsNotEmpty,
  IsObject,
  IsString,
  IsUUID,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { Optional, PartialUpdate } from '../../common/validation/optional';
import { Trim } from '../../common/validation/transforms';
import { PageQuery } from '../../common/pagination/pagination';
import { WEBHOOK_EVENT_TYPES } from './event-types';
import { DELIVERY_STATUSES, DeliveryStatus } from './webhook-delivery.entity';

export const MAX_REPLAY_EVENT_IDS = 1000;

export class WebhookFiltersDto {
  @ApiPropertyOptional({ type: [String], example: ['5962'], description: 'Only events of these buildings (empty: every building)' })
  @Optional()
  @IsArray()
  @ArrayMaxSize(1000)
  @Matches(/^[1-9]\d{0,9}$/, { each: true, message: 'each value in building_ids must be a building id' })
  building_ids?: string[];

  @ApiPropertyOptional({ type: [String], format: 'uuid', description: 'Only events of these geofences (empty: every geofence)' })
  @Optional()
  @IsArray()
  @ArrayMaxSize(1000)
  @IsUUID(undefined, { each: true })
  geofence_ids?: string[];
}

export class CreateWebhookDto {
  @ApiProperty({ example: 'https://hooks.example.com/cartograph', maxLength: 2048 })
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(2048)
  url: string;

  @ApiPropertyOptional({ enum: WEBHOOK_EVENT_TYPES, isArray: true, description: 'Default: every type' })
  @Optional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayUnique()
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true })
  event_types?: string[];

  @ApiPropertyOptional({ maxLength: 1000 })
  @Optional()
  @IsString()
  @MaxLength(1000)
  description?: string;

  @ApiPropertyOptional({ type: WebhookFiltersDto })
  @Optional()
  @IsObject()
  @ValidateNested()
  @Type(() => WebhookFiltersDto)
  filters?: WebhookFiltersDto;

  @ApiPropertyOptional({ default: true })
  @Optional()
  @IsBoolean()
  enabled?: boolean;
}

export class UpdateWebhookDto extends PartialUpdate(CreateWebhookDto) {}

export class WebhookFiltersResponseDto {
  @ApiProperty({ type: [String] }) building_ids: string[];
  @ApiProperty({ type: [String] }) geofence_ids: string[];
}

export class WebhookResponseDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() url: string;
  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES, isArray: true }) event_types: string[];
  @ApiProperty() description: string;
  @ApiProperty({ type: WebhookFiltersResponseDto }) filters: WebhookFiltersResponseDto;
  @ApiProperty() enabled: boolean;
  @ApiProperty({ nullable: true, type: String, enum: ['endpoint_gone'], description: 'Why the server disabled it (a 410 from the receiver)' })
  disabled_reason: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'Until when the previous secret also signs (after a rotation)' })
  previous_secret_expires_at: string | null;
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;
}

export class WebhookWithSecretDto extends WebhookResponseDto {
  @ApiProperty({ example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', description: 'The signing secret: shown here only' })
  secret: string;
}

export class ListDeliveriesQuery extends PageQuery {
  @ApiPropertyOptional({ enum: DELIVERY_STATUSES })
  @Optional()
  @IsIn(DELIVERY_STATUSES)
  status?: DeliveryStatus;
}

export class DeliveryAttemptDto {
  @ApiProperty() attempt: number;
  @ApiProperty() started_at: string;
  @ApiProperty() duration_ms: number;
  @ApiProperty({ nullable: true, type: Number, description: 'null: no HTTP answer (timeout, connection refused, refused target)' }) status_code: number | null;
  @ApiProperty({ nullable: true, type: String }) error: string | null;
}

export class DeliveryResponseDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) webhook_id: string;
  @ApiProperty({ description: 'The webhook-id header of every attempt: the event id' }) message_id: string;
  @ApiProperty() event_type: string;
  @ApiProperty({ enum: DELIVERY_STATUSES }) status: DeliveryStatus;
  @ApiProperty() attempts: number;
  @ApiProperty({ nullable: true, type: String }) next_attempt_at: string | null;
  @ApiProperty({ nullable: true, type: Number }) last_status_code: number | null;
  @ApiProperty({ nullable: true, type: String }) last_error: string | null;
  @ApiProperty({ nullable: true, type: String }) last_attempt_at: string | null;
  @ApiProperty() created_at: string;
  @ApiProperty({ type: [DeliveryAttemptDto] }) attempt_log: DeliveryAttemptDto[];
}

/** `POST /webhooks/{id}/replay`: a range of occurred_at, or a list of events (one form, not both). */
export class ReplayWebhookDto {
  @ApiPropertyOptional({
    example: '2026-11-20T00:00:00Z',
    description: 'With `to`: the events that occurred in [from, to] (at most 31 days, 10,000 events) and that the webhook subscribes to',
  })
  @Optional()
  @IsISO8601({ strict: true })
  from?: string;

  @ApiPropertyOptional({ example: '2026-11-21T00:00:00Z' })
  @Optional()
  @IsISO8601({ strict: true })
  to?: string;

  @ApiPropertyOptional({ type: [String], example: ['evt_3f1c9a2b7d4e5f60718293a4'], description: 'These events (at most 1,000), whatever the webhook subscribes to' })
  @Optional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_REPLAY_EVENT_IDS)
  @Matches(/^evt_[0-9a-f]{24}$/, { each: true, message: 'each value in event_ids must be an event id (evt_…)' })
  event_ids?: string[];
}

export class ReplayResponseDto {
  @ApiProperty({ format: 'uuid' }) webhook_id: string;
  @ApiProperty({ description: 'Events the replay covers (in the range and subscribed to, or listed)' }) events: number;
  @ApiProperty({ description: 'Deliveries queued for an attempt now (a new one, or the existing delivery of that event to this webhook sent again)' }) enqueued: number;
  @ApiProperty({ description: 'Events whose delivery to this webhook was being attempted at that moment (left to that attempt)' }) in_flight: number;
}
