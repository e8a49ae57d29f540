import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { Optional } from '../common/validation/optional';

export class OrganizationResponseDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'Acme Logistics' })
  name: string;

  @ApiProperty({
    example: 'org/0f8fad5b-d9cb-469f-a165-70867728950e',
    description: "The organization's topic prefix on an external MQTT broker (MQTT_URL): gateways publish under `{prefix}/` + a gateway topic",
  })
  mqtt_topic_prefix: string;

  @ApiProperty({ example: '2020-05-08T10:26:34.801+00:00' })
  created_at: string;

  @ApiProperty({ example: '2020-05-08T10:26:34.801+00:00' })
  updated_at: string;
}

export class UpdateOrganizationDto {
  @ApiProperty({ required: false, maxLength: 255 })
  @Optional()
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name?: string;
}
