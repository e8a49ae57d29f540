import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsInt, IsNotEmpty, IsString, IsUUID, Matches, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { MAX_INTEGER_ID } from '../../common/http/params';
import { IntegerFromString, Trim } from '../../common/validation/transforms';
import { Nullable, Optional, PartialUpdate } from '../../common/validation/optional';

export class CreatePoiCategoryDto {
  @ApiProperty({ maxLength: 255, example: 'Toilets' })
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name_en: string;

  @ApiPropertyOptional({ maxLength: 255, example: 'Aseos' })
  @Optional()
  @Trim()
  @IsString()
  @MaxLength(255)
  name_es?: string;

  @ApiProperty({ maxLength: 255, example: 'wc', description: 'Unique within the organization' })
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  @Matches(/^[\w.-]+$/, { message: 'code may contain letters, digits, "_", "-" and "." only' })
  code: string;

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: 'Id of an uploaded image; null or "" removes it' })
  @Nullable()
  @ValidateIf((_object, value) => value !== '')
  @IsUUID()
  icon?: string | null;

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: 'Id of an uploaded image; null or "" removes it' })
  @Nullable()
  @ValidateIf((_object, value) => value !== '')
  @IsUUID()
  selected_icon?: string | null;

  @ApiPropertyOptional({ default: false })
  @Optional()
  @IsBoolean()
  public?: boolean;
}

export class UpdatePoiCategoryDto extends PartialUpdate(CreatePoiCategoryDto) {}

export class DeletePoiCategoryQuery {
  @ApiPropertyOptional({ description: 'Move the POIs of the deleted category to this one instead of answering 409' })
  @Optional()
  @IntegerFromString()
  @IsInt()
  @Min(1)
  @Max(MAX_INTEGER_ID)
  reassign_to?: number;
}

export class PoiCategoryResponseDto {
  @ApiProperty() id: number;
  @ApiProperty() name_en: string;
  @ApiProperty() name_es: string;
  @ApiProperty() code: string;
  @ApiProperty() public: boolean;
  @ApiProperty({ description: 'Relative URL of the icon; "" when none' }) icon_url: string;
  @ApiProperty({ description: 'Relative URL of the selected icon; "" when none' }) selected_icon_url: string;
  @ApiProperty({ example: '2020-05-08T10:26:34.801+00:00' }) created_at: string;
  @ApiProperty({ example: '2020-05-08T10:26:34.801+00:00' }) updated_at: string;
}
