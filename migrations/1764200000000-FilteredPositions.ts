import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/**
 * Issue 37: a building may ask for the positions its devices report themselves to be filtered
 * (off by default: the apps filter them already). The filter's state is kept in `device_tracks`.
 */
export class FilteredPositions1764200000000 implements MigrationInterface {
  name = 'FilteredPositions1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn('building_tracking', new TableColumn({ name: 'positions', type: 'boolean', default: false }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('building_tracking', 'positions');
  }
}
