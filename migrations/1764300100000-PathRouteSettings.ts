import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { columnTypes } from './column-types';

/**
 * Issue 40: a building's paths carry how directions over them are timed and snapped (the snap
 * distance, the time of stairs, lifts, escalators and ramps); null: every field its default.
 */
export class PathRouteSettings1764300100000 implements MigrationInterface {
  name = 'PathRouteSettings1764300100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn('paths', new TableColumn({ name: 'route_settings', type: columnTypes(queryRunner).json, isNullable: true }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('paths', 'route_settings');
  }
}
