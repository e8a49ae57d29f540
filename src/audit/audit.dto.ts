import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsISO8601, IsString, IsUUID, Matches, MaxLength } from 'class-validator';
import { PageQuery } from '../common/pagination/pagination';
import { Optional } from '../common/validation/optional';

export class ListAuditQuery extends PageQuery {
  @ApiPropertyOptional({ description: 'ISO 8601 instant; entries at or after it', example: '2026-01-01T00:00:00Z' })
  @Optional()
  @IsISO8601({ strict: true })
  from?: string;

  @ApiPropertyOptional({ description: 'ISO 8601 instant; entries at or before it' })
  @Optional()
  @IsISO8601({ strict: true })
  to?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @Optional()
  @IsUUID()
  actor_id?: string;

  @ApiPropertyOptional({ example: 'user.create' })
  @Optional()
  @IsString()
  @MaxLength(64)
  @Matches(/^[a-z_]+\.[a-z_]+$/)
  action?: string;
}

export class AuditEventResponseDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) actor_id: string | null;
  @ApiProperty({ example: 'user.update' }) action: string;
  @ApiProperty({ example: 'user' }) target_type: string;
  @ApiProperty() target_id: string;
  @ApiProperty({ nullable: true, type: String, example: '192.0.2.10' }) ip: string | null;
  @ApiProperty({ example: '2020-05-08T10:26:34.801+00:00' }) created_at: string;
}
