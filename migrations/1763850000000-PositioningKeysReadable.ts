import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Positioning keys are shown in full to their owner (contract section 10), so their secret is
 * kept sealed with AES-256-GCM next to the hash. Keys created before stay hash-only (null).
 */
export class PositioningKeysReadable1763850000000 implements MigrationInterface {
  name = 'PositioningKeysReadable1763850000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "api_keys" ADD COLUMN "sealed_key" text NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "api_keys" DROP COLUMN "sealed_key"');
  }
}
