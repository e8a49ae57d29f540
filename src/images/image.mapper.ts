import { Image } from './image.entity';
import { ImageResponseDto } from './images.dto';

export const imageUrl = (id: string): string => `/api/v1/images/${id}`;

/** A reference to an optional image: its relative URL, or "" when unset (contract section 1). */
export const optionalImageUrl = (id: string | null | undefined): string => (id ? imageUrl(id) : '');

export function toImageResponse(image: Image): ImageResponseDto {
  return { id: image.id, url: imageUrl(image.id) };
}
