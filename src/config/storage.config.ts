import { join } from 'node:path';
import { registerAs } from '@nestjs/config';
import { readAppConfig } from './app.config';
import { ConfigurationError, Env, readBoolean, readOptionalString, readString } from './env';

export interface StorageConfig {
  /** `local` (files under DATA_DIR/images) or `database` (shared by every instance). */
  images: 'local' | 'database';
  imagesDirectory: string;
}

/**
 * Images default to the database on PostgreSQL, where several instances may serve one
 * organization: files in one instance's DATA_DIR would be missing on the others. Local
 * files with PostgreSQL are refused unless the operator states that DATA_DIR/images is
 * shared by every instance (or that there is only one).
 */
export function readStorageConfig(env: Env): StorageConfig {
  const onPostgres = readOptionalString(env, 'DATABASE_URL') !== undefined;
  const images = readString(env, 'IMAGE_STORAGE', onPostgres ? 'database' : 'local');
  if (images !== 'local' && images !== 'database') throw new ConfigurationError('IMAGE_STORAGE must be local or database', 'IMAGE_STORAGE');
  if (images === 'local' && onPostgres && !readBoolean(env, 'IMAGE_STORAGE_LOCAL_SHARED', false)) {
    throw new ConfigurationError(
      'IMAGE_STORAGE=local with PostgreSQL loses images on every other instance: use IMAGE_STORAGE=database (the default on PostgreSQL), ' +
        'or set IMAGE_STORAGE_LOCAL_SHARED=true if DATA_DIR/images is shared by every instance or only one instance runs',
      'IMAGE_STORAGE',
    );
  }
  return { images, imagesDirectory: join(readAppConfig(env).dataDir, 'images') };
}

export const storageConfig = registerAs('storage', (): StorageConfig => readStorageConfig(process.env));
