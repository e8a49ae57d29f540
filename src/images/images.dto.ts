import { ApiProperty } from '@nestjs/swagger';

export class ImageResponseDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: '/api/v1/images/0f8c9a8e-1b1e-4a47-9a4e-0c8f8b6f3f10', description: 'Relative to the server' }) url: string;
}

export class UploadImageDto {
  @ApiProperty({ type: 'string', format: 'binary', description: 'PNG, JPEG, WebP or SVG, at most 20 MiB' })
  image: unknown;
}
