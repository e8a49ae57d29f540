import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn } from 'class-validator';
import { Optional } from '../common/validation/optional';
import { THUMBNAIL_WIDTHS, type ThumbnailWidth } from './thumbnails';

export class ImageResponseDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: '/api/v1/images/0f8c9a8e-1b1e-4a47-9a4e-0c8f8b6f3f10', description: 'Relative to the server' }) url: string;
}

export class UploadImageDto {
  @ApiProperty({ type: 'string', format: 'binary', description: 'PNG, JPEG, WebP or SVG, at most 20 MiB' })
  image: unknown;
}

export class ImageQuery {
  @ApiPropertyOptional({ enum: THUMBNAIL_WIDTHS, description: 'A thumbnail at most this many pixels wide (WebP, aspect ratio kept, never enlarged) instead of the image itself' })
  @Optional()
  @Transform(({ value }) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value))
  @IsIn(THUMBNAIL_WIDTHS as unknown as number[])
  width?: ThumbnailWidth;
}
