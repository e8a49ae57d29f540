import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { ImageStorage } from './image-storage';

const SAFE_KEY = /^[0-9a-f-]{36}$/;

/** Files under DATA_DIR/images, one per image; fine for a single instance or a shared volume. */
export class LocalDiskStorage implements ImageStorage {
  readonly kind = 'local' as const;

  constructor(private readonly directory: string) {}

  async write(key: string, bytes: Buffer): Promise<void> {
    const path = this.pathOf(key);
    await mkdir(this.directory, { recursive: true });
    // Written aside and renamed, so a reader never sees half a file.
    const draft = `${path}.${randomBytes(4).toString('hex')}.tmp`;
    await writeFile(draft, bytes, { mode: 0o640 });
    await rename(draft, path);
  }

  async read(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.pathOf(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  private pathOf(key: string): string {
    if (!SAFE_KEY.test(key)) throw new Error(`Invalid image key ${key}`);
    return join(this.directory, key);
  }
}
