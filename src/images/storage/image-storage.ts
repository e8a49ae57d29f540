import type { EntityManager } from 'typeorm';

export const IMAGE_STORAGE = Symbol('IMAGE_STORAGE');

export type ImageStorageKind = 'local' | 'database';

/**
 * Where image bytes live. Callers only see this interface, so another store (for example
 * an S3-compatible one) can be added without touching them. `write` takes the caller's
 * transaction so that stores inside the database commit with the image's row.
 */
export interface ImageStorage {
  readonly kind: ImageStorageKind;
  write(key: string, bytes: Buffer, manager: EntityManager): Promise<void>;
  read(key: string): Promise<Buffer | null>;
  remove(key: string, manager: EntityManager): Promise<void>;
}
