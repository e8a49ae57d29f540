import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';

/** A free key/value pair attached to a cartography object. */
export class CustomFieldDto {
  @ApiProperty({ example: 'zone' })
  @IsString()
  @MaxLength(255)
  key: string;

  @ApiProperty({ example: 'A' })
  @IsString()
  @MaxLength(4096)
  value: string;
}

export interface CustomField {
  key: string;
  value: string;
}
