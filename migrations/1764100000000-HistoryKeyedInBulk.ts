import { MigrationInterface, QueryRunner } from 'typeorm';

const COLUMNS = 'organization_id, device_id, "time", user_id, building_id, floor_id, lat, lng, x, y, accuracy, yaw';

/**
 * SQLite: the history's key by device (organization, device, time) was written on every fix, one
 * scattered page per fix. The history now appends rows in arrival order (`id`) and keys them by
 * device in bulk: a row is `merged` into that key (a partial index) a second or so after it was
 * written, many rows per device at once (see SqlitePositionStore). PostgreSQL keeps its
 * partitioned table.
 */
export class HistoryKeyedInBulk1764100000000 implements MigrationInterface {
  name = 'HistoryKeyedInBulk1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.driver.options.type === 'postgres') return;
    await queryRunner.query(`CREATE TABLE "position_history_appended" (
      "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
      "organization_id" varchar(36) NOT NULL,
      "device_id" varchar(64) NOT NULL,
      "time" datetime NOT NULL,
      "user_id" varchar(36),
      "building_id" integer,
      "floor_id" integer,
      "lat" double precision NOT NULL,
      "lng" double precision NOT NULL,
      "x" double precision,
      "y" double precision,
      "accuracy" double precision NOT NULL,
      "yaw" double precision,
      "merged" integer NOT NULL DEFAULT (1))`);
    await queryRunner.query(`INSERT INTO "position_history_appended" (${COLUMNS}) SELECT ${COLUMNS} FROM "position_history" ORDER BY "time", organization_id, device_id`);
    await queryRunner.query('DROP TABLE "position_history"');
    await queryRunner.query('ALTER TABLE "position_history_appended" RENAME TO "position_history"');
    await queryRunner.query('CREATE INDEX "IDX_position_history_time" ON "position_history" ("organization_id", "time")');
    await queryRunner.query('CREATE INDEX "IDX_position_history_building_time" ON "position_history" ("organization_id", "building_id", "time")');
    await queryRunner.query('CREATE UNIQUE INDEX "IDX_position_history_device" ON "position_history" ("organization_id", "device_id", "time") WHERE "merged" = 1');
    await queryRunner.query('CREATE INDEX "IDX_position_history_unmerged" ON "position_history" ("id") WHERE "merged" = 0');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.driver.options.type === 'postgres') return;
    await queryRunner.query(`CREATE TABLE "position_history_keyed" (
      "organization_id" varchar(36) NOT NULL,
      "device_id" varchar(64) NOT NULL,
      "time" datetime NOT NULL,
      "user_id" varchar(36),
      "building_id" integer,
      "floor_id" integer,
      "lat" double precision NOT NULL,
      "lng" double precision NOT NULL,
      "x" double precision,
      "y" double precision,
      "accuracy" double precision NOT NULL,
      "yaw" double precision,
      PRIMARY KEY ("organization_id", "device_id", "time"))`);
    await queryRunner.query(`INSERT OR IGNORE INTO "position_history_keyed" (${COLUMNS}) SELECT ${COLUMNS} FROM "position_history"`);
    await queryRunner.query('DROP TABLE "position_history"');
    await queryRunner.query('ALTER TABLE "position_history_keyed" RENAME TO "position_history"');
    await queryRunner.query('CREATE INDEX "IDX_position_history_time" ON "position_history" ("organization_id", "time")');
    await queryRunner.query('CREATE INDEX "IDX_position_history_building_time" ON "position_history" ("organization_id", "building_id", "time")');
  }
}
