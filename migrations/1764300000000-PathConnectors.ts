import { MigrationInterface, QueryRunner } from 'typeorm';

interface StoredLink {
  connector?: unknown;
  [key: string]: unknown;
}

/**
 * Issue 40: a link of the paths graph says what connector it is between floors (`stairs`,
 * `elevator`, `escalator`, `ramp`), or null when that is derived from its tags. Every stored link
 * gets `connector: null`, so graphs stored before route exactly as before (derived types) and read
 * back with the field like any new one.
 */
export class PathConnectors1764300000000 implements MigrationInterface {
  name = 'PathConnectors1764300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await this.rewrite(queryRunner, (link) => ({ ...link, connector: link.connector ?? null }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await this.rewrite(queryRunner, ({ connector: _connector, ...link }) => link);
  }

  private async rewrite(queryRunner: QueryRunner, change: (link: StoredLink) => StoredLink): Promise<void> {
    const postgres = queryRunner.connection.driver.options.type === 'postgres';
    const rows = (await queryRunner.query('SELECT "building_id", "links" FROM "paths"')) as Array<{ building_id: number; links: unknown }>;
    for (const row of rows) {
      // jsonb arrives parsed on PostgreSQL, as its text on SQLite.
      const links = (typeof row.links === 'string' ? JSON.parse(row.links) : row.links) as StoredLink[];
      const text = JSON.stringify(links.map(change));
      await queryRunner.query(postgres ? 'UPDATE "paths" SET "links" = $1::jsonb WHERE "building_id" = $2' : 'UPDATE "paths" SET "links" = ? WHERE "building_id" = ?', [
        text,
        row.building_id,
      ]);
    }
  }
}
