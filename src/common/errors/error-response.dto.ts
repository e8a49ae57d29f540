import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class FieldErrorDto {
  @ApiProperty({ example: 'name should not be empty' })
  message: string;

  @ApiProperty({ example: 'invalid' })
  code: string;

  @ApiProperty({ example: 'name', description: 'The field (dotted path) the error is about' })
  fields: string;

  @ApiPropertyOptional({ description: 'The rejected value, when it is safe to echo' })
  value?: unknown;
}

/** The one error shape of every failed request (contract section 3). */
export class ErrorResponseDto {
  @ApiProperty({ example: 422 })
  status: number;

  @ApiProperty({
    example: 'validation_failed',
    enum: [
      'bad_request',
      'unauthorized',
      'invalid_credentials',
      'forbidden',
      'entity_not_found',
      'route_not_found',
      'conflict',
      'payload_too_large',
      'validation_failed',
      'too_many_requests',
      'cursor_expired',
      'service_unavailable',
      'internal_error',
    ],
  })
  code: string;

  @ApiProperty({ example: 'The request is not valid' })
  message: string;

  @ApiProperty({ type: [FieldErrorDto] })
  errors: FieldErrorDto[];
}
