import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columnBuilders } from './column-types';

/** The stateful half of geofencing (contract 7.2, 7.3): states per (device, fence), visits, events and their per-organization sequence. */
export class GeofenceEvents1763900000000 implements MigrationInterface {
  name = 'GeofenceEvents1763900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const t = columnBuilders(queryRunner);
    const postgres = queryRunner.connection.driver.options.type === 'postgres';
    const bigint = postgres ? 'bigint' : 'integer';
    // A row only while the pair matters (not plain outside): about the size of the occupants.
    await queryRunner.createTable(
      new Table({
        name: 'geofence_states',
        columns: [
          t.uuid('organization_id'),
          { name: 'device_id', type: 'varchar', length: '64' },
          t.uuid('geofence_id'),
          { name: 'phase', type: 'varchar', length: '16' },
          { name: 'visit_id', type: 'varchar', length: '40', isNullable: true },
          // The engine's VisitState, whole: read and written only by the evaluator.
          { name: 'state', type: 'text' },
          // When the timer must run the state machine if no fix comes first.
          t.timestamp('next_deadline_at', true),
          t.timestamp('updated_at'),
        ],
        uniques: [{ name: 'UQ_geofence_states_pair', columnNames: ['organization_id', 'device_id', 'geofence_id'] }],
        indices: [
          { name: 'IDX_geofence_states_fence', columnNames: ['geofence_id', 'phase'] },
          { name: 'IDX_geofence_states_deadline', columnNames: ['next_deadline_at'] },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'geofence_visits',
        columns: [
          { name: 'id', type: 'varchar', length: '40', isPrimary: true },
          t.uuid('organization_id'),
          t.uuid('geofence_id'),
          { name: 'device_id', type: 'varchar', length: '64' },
          t.uuid('user_id', true),
          t.timestamp('entered_at'),
          t.timestamp('exited_at', true),
          { name: 'exit_reason', type: 'varchar', length: '16', isNullable: true },
          { name: 'dwell_fired', type: 'boolean', default: false },
        ],
        indices: [
          { name: 'IDX_geofence_visits_fence_entered', columnNames: ['geofence_id', 'entered_at'] },
          { name: 'IDX_geofence_visits_fence_open', columnNames: ['geofence_id', 'exited_at'] },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'geofence_events',
        columns: [
          { name: 'id', type: 'varchar', length: '40', isPrimary: true },
          t.uuid('organization_id'),
          { name: 'seq', type: bigint },
          { name: 'type', type: 'varchar', length: '32' },
          t.timestamp('occurred_at'),
          t.timestamp('detected_at'),
          { name: 'building_id', type: 'integer' },
          { name: 'floor_id', type: 'integer' },
          t.uuid('geofence_id'),
          { name: 'device_id', type: 'varchar', length: '64' },
          t.uuid('user_id', true),
          { name: 'visit_id', type: 'varchar', length: '40' },
          // The 7.3 body as sent: the log and the webhooks answer exactly what ingest answered.
          { name: 'body', type: 'text' },
        ],
        uniques: [{ name: 'UQ_geofence_events_seq', columnNames: ['organization_id', 'seq'] }],
        indices: [
          { name: 'IDX_geofence_events_fence', columnNames: ['organization_id', 'geofence_id', 'seq'] },
          { name: 'IDX_geofence_events_device', columnNames: ['organization_id', 'device_id', 'seq'] },
          { name: 'IDX_geofence_events_user', columnNames: ['organization_id', 'user_id', 'seq'] },
          { name: 'IDX_geofence_events_building', columnNames: ['organization_id', 'building_id', 'seq'] },
          { name: 'IDX_geofence_events_type', columnNames: ['organization_id', 'type', 'seq'] },
          { name: 'IDX_geofence_events_time', columnNames: ['organization_id', 'occurred_at'] },
        ],
      }),
    );
    // seq per organization: its row lock, held to commit, orders seq by commit.
    await queryRunner.createTable(
      new Table({
        name: 'geofence_event_counters',
        columns: [t.uuidKey('organization_id'), { name: 'seq', type: bigint }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['geofence_event_counters', 'geofence_events', 'geofence_visits', 'geofence_states']) await queryRunner.dropTable(table);
  }
}
