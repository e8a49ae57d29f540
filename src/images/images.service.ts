import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { createHash, randomUUID } from 'node:crypto';
import { EntityManager, Repository } from 'typeorm';
import { Principal } from '../access/principal';
import { ApiError } from '../common/errors/api-error';
import { TransactionRunner } from '../database/transactions';
import { detectImageType } from './image-content';
import { Image } from './image.entity';
import { toImageResponse } from './image.mapper';
import { ImageResponseDto } from './images.dto';
import { scanSvg, SVG_LIMITS } from './svg-limits';
import { SanitizerPool } from '../common/html/sanitizer-pool';
import { IMAGE_STORAGE, ImageStorage } from './storage/image-storage';
import { ImageThumbnails, ThumbnailWidth } from './thumbnails';

export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;

export interface ImageContent {
  contentType: string;
  etag: string;
  /** Read (or made) only when sent: a matching If-None-Match needs only the tag. */
  bytes: () => Promise<Buffer>;
}

@Injectable()
export class ImagesService {
  constructor(
    @InjectRepository(Image) private readonly images: Repository<Image>,
    @Inject(IMAGE_STORAGE) private readonly storage: ImageStorage,
    private readonly transactions: TransactionRunner,
    private readonly sanitizer: SanitizerPool,
    private readonly thumbnails: ImageThumbnails,
  ) {}

  async upload(principal: Principal, uploaded: Buffer): Promise<ImageResponseDto> {
    const contentType = detectImageType(uploaded);
    if (!contentType) {
      throw ApiError.validation('The file is not an image', [{ message: 'must be a PNG, JPEG, WebP or SVG image', code: 'invalid', fields: 'image' }]);
    }
    const bytes = contentType === 'image/svg+xml' ? await this.sanitizedSvg(uploaded) : uploaded;
    const image = this.images.create({
      id: randomUUID(),
      organizationId: principal.organizationId,
      contentType,
      byteSize: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      storage: this.storage.kind,
      createdBy: principal.userId,
      createdAt: new Date(),
    });
    await this.transactions.run(async (manager) => {
      await manager.insert(Image, image);
      await this.storage.write(image.id, bytes, manager);
    });
    return toImageResponse(image);
  }

  /** Bounded before sanitizing (413 too large, 422 too complex), then sanitized off the event loop. */
  private async sanitizedSvg(uploaded: Buffer): Promise<Buffer> {
    if (uploaded.length > SVG_LIMITS.maxBytes) throw ApiError.payloadTooLarge(SVG_LIMITS.maxBytes);
    const svg = uploaded.toString('utf8');
    const scan = scanSvg(svg);
    if (!scan.ok) {
      const why = scan.reason === 'depth' ? `nests elements more than ${scan.limit} levels deep` : `has more than ${scan.limit} elements`;
      throw ApiError.validation('The SVG is too complex', [{ message: why, code: 'too_complex', fields: 'image' }]);
    }
    return Buffer.from(await this.sanitizer.sanitizeSvg(svg), 'utf8');
  }

  /** The image, or with `width` its thumbnail (made once per content and width, then cached). */
  async read(principal: Principal, id: string, width?: ThumbnailWidth): Promise<ImageContent> {
    const image = await this.images.findOneBy({ id, organizationId: principal.organizationId });
    if (!image) throw ApiError.notFound('Image', id);
    const original = async () => {
      const bytes = await this.storage.read(image.id);
      if (!bytes) throw ApiError.notFound('Image', id);
      return bytes;
    };
    if (width === undefined) return { contentType: image.contentType, etag: `"${image.sha256}"`, bytes: original };
    return {
      contentType: this.thumbnails.contentType,
      etag: this.thumbnails.etag(image.sha256, width),
      bytes: () => this.thumbnails.of(image.sha256, width, original),
    };
  }

  /** For references in bodies (floor plans, category icons): 422 naming the field when unknown. */
  async assertReferenced(principal: Principal, id: string, field: string, manager: EntityManager): Promise<void> {
    const exists = await manager.existsBy(Image, { id, organizationId: principal.organizationId });
    if (!exists) {
      throw ApiError.validation(`The ${field} does not name an image of your organization`, [{ message: 'no such image', code: 'not_found', fields: field, value: id }]);
    }
  }
}
