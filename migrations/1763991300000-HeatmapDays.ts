import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columnBuilders } from './column-types';

/**
 * The heatmap's kept days: per (organization, floor, cell size in cm, UTC day start in epoch
 * ms) the cell counts of that day as JSON `[[cx, cy, count], ...]`, with the building's fix
 * count of that day (from position_rollups) when they were counted: while it is unchanged,
 * the day's counts are current.
 */
export class HeatmapDays1763991300000 implements MigrationInterface {
  name = 'HeatmapDays1763991300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnBuilders(queryRunner);
    const bigint = queryRunner.connection.driver.options.type === 'postgres' ? 'bigint' : 'integer';
    await queryRunner.createTable(
      new Table({
        name: 'heatmap_days',
        columns: [
          { ...t.uuid('organization_id'), isPrimary: true },
          { name: 'floor_id', type: 'integer', isPrimary: true },
          { name: 'cell_cm', type: 'integer', isPrimary: true },
          { name: 'day', type: bigint, isPrimary: true },
          { name: 'building_fixes', type: bigint },
          { name: 'cells', type: 'text' },
          { name: 'computed_at', type: bigint },
        ],
        indices: [{ name: 'IDX_heatmap_days_day', columnNames: ['organization_id', 'day'] }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('heatmap_days');
  }
}
