import { join } from 'node:path';
import { registerAs } from '@nestjs/config';
import { readAppConfig } from './app.config';
import { ConfigurationError, Env, readString } from './env';

export interface StorageConfig {
  /** `local` (files under DATA_DIR/images) or `database` (shared by every instance). */
  images: 'local' | 'database';
  imagesDirectory: string;
}

export function readStorageConfig(env: Env): StorageConfig {
  const images = readString(env, 'IMAGE_STORAGE', 'local');
  if (images !== 'local' && images !== 'database') throw new ConfigurationError('IMAGE_STORAGE must be local or database');
  return { images, imagesDirectory: join(readAppConfig(env).dataDir, 'images') };
}

export const storageConfig = registerAs('storage', (): StorageConfig => readStorageConfig(process.env));
