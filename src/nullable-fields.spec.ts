import 'reflect-metadata';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getMetadataStorage } from 'class-validator';
import { describe, expect, it } from 'vitest';

const SOURCE = __dirname;
// @nestjs/swagger's key for ApiProperty metadata (DECORATORS.API_MODEL_PROPERTIES).
const API_MODEL_PROPERTIES = 'swagger/apiModelProperties';

/** Every source file that declares validated classes (DTOs, and the services that validate by hand). */
function validatedFiles(): string[] {
  return readdirSync(SOURCE, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.spec.ts') && !file.endsWith('.d.ts'))
    .filter((file) => readFileSync(join(SOURCE, file), 'utf8').includes("from 'class-validator'"));
}

describe('fields that accept null', () => {
  it('are only those the OpenAPI document marks nullable (null elsewhere is a 422, never a NOT NULL 500)', async () => {
    const files = validatedFiles();
    expect(files.length).toBeGreaterThan(20);
    for (const file of files) await import(join(SOURCE, file));
    const storage = getMetadataStorage() as unknown as { validationMetadatas: Map<abstract new (...args: never[]) => unknown, Array<{ name?: string; propertyName: string }>> };
    const undocumented: string[] = [];
    let nullable = 0;
    for (const [target, metadatas] of storage.validationMetadatas) {
      for (const metadata of metadatas.filter((candidate) => candidate.name === 'isOptional')) {
        const documented = Reflect.getMetadata(API_MODEL_PROPERTIES, target.prototype, metadata.propertyName) as { nullable?: boolean } | undefined;
        if (documented?.nullable === true) nullable += 1;
        else undocumented.push(`${target.name}.${metadata.propertyName}`);
      }
    }
    expect(undocumented).toEqual([]);
    expect(nullable).toBeGreaterThan(5);
  });
});
