import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * One counter per building, bumped by every write to its wifi access points and BLE beacons,
 * so that each instance's cache of a building's transmitters (for positions from scans) is
 * reused only while it is current. Kept apart from `building_revisions`, which versions the
 * building document: a moved beacon does not change what GET /buildings/{id} shows.
 */
export class InfrastructureRevisions1763940000000 implements MigrationInterface {
  name = 'InfrastructureRevisions1763940000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'infrastructure_revisions',
        columns: [
          { name: 'building_id', type: 'integer', isPrimary: true },
          { name: 'revision', type: 'integer', default: 1 },
        ],
        foreignKeys: [{ columnNames: ['building_id'], referencedTableName: 'buildings', referencedColumnNames: ['id'] }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('infrastructure_revisions');
  }
}
