import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import sharp from 'sharp';

/** The widths a thumbnail may have: a small set, so a cache of them stays small and shared. */
export const THUMBNAIL_WIDTHS = [160, 320, 640, 1280] as const;
export type ThumbnailWidth = (typeof THUMBNAIL_WIDTHS)[number];

/** Thumbnails kept in memory at most, in bytes (each is a few KiB to a few hundred). */
const CACHE_BYTES = 32 * 1024 * 1024;

// One resize at a time per process: a burst of thumbnails must not take every core from the API.
sharp.concurrency(1);
sharp.cache(false);

/**
 * Scaled-down WebP copies of images, at most `width` pixels wide with the aspect ratio kept
 * (never enlarged; an SVG is drawn at that width). Keyed by the image's content hash, so a copy
 * made by one instance is the same bytes and ETag as another's, and a new plan (a new image)
 * never meets an old copy.
 */
@Injectable()
export class ImageThumbnails {
  private readonly cache = new LRUCache<string, Buffer, () => Promise<Buffer>>({
    maxSize: CACHE_BYTES,
    sizeCalculation: (bytes) => Math.max(1, bytes.length),
    // Concurrent asks for one thumbnail share one resize.
    fetchMethod: async (key, _stale, { context }) => thumbnail(await context(), Number(key.split(':')[1])),
  });

  readonly contentType = 'image/webp';

  etag(sha256: string, width: ThumbnailWidth): string {
    return `"${sha256}-w${width}"`;
  }

  async of(sha256: string, width: ThumbnailWidth, original: () => Promise<Buffer>): Promise<Buffer> {
    const bytes = await this.cache.fetch(`${sha256}:${width}`, { context: original });
    return bytes!;
  }
}

async function thumbnail(original: Buffer, width: number): Promise<Buffer> {
  const image = sharp(original, { limitInputPixels: 100_000_000 });
  const { format } = await image.metadata();
  // A vector plan has no size of its own to keep: it is drawn at the width asked for.
  return image
    .resize({ width, withoutEnlargement: format !== 'svg' })
    .webp({ quality: 80 })
    .toBuffer();
}
