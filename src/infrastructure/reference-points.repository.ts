import { Injectable } from '@nestjs/common';
import { EntityManager, In } from 'typeorm';
import { Building } from '../cartography/buildings/building.entity';
import { Floor } from '../cartography/floors/floor.entity';
import { ReferencePoint } from './reference-point.entity';

const BATCH = 500;

/** Every query on reference points: one method each. */
@Injectable()
export class ReferencePointsRepository {
  /** The point of the organization, on a live floor of a live building; `lock` holds it for an update (PostgreSQL). */
  async findOwned(manager: EntityManager, organizationId: string, id: number, lock = false): Promise<ReferencePoint | null> {
    const query = manager
      .createQueryBuilder(ReferencePoint, 'point')
      .innerJoin(Floor, 'floor', 'floor.id = point.floorId AND floor.deletedAt IS NULL')
      .innerJoin(Building, 'building', 'building.id = point.buildingId AND building.deletedAt IS NULL')
      .where('point.id = :id AND point.organizationId = :organizationId', { id, organizationId });
    if (lock && manager.connection.options.type === 'postgres') query.setLock('pessimistic_write', undefined, ['point']);
    return query.getOne();
  }

  /** The points of a building on the given floors, by id. */
  listOnFloors(manager: EntityManager, buildingId: number, floorIds: readonly number[]): Promise<ReferencePoint[]> {
    if (floorIds.length === 0) return Promise.resolve([]);
    return manager.find(ReferencePoint, { where: { buildingId, floorId: In([...floorIds]) }, order: { id: 'ASC' } });
  }

  async insert(manager: EntityManager, rows: readonly Partial<ReferencePoint>[]): Promise<ReferencePoint[]> {
    const created = rows.map((row) => manager.create(ReferencePoint, row));
    for (let start = 0; start < created.length; start += BATCH) await manager.insert(ReferencePoint, created.slice(start, start + BATCH));
    return created;
  }

  /** `UPDATE … WHERE id AND version`: false when another writer changed it since it was read. */
  async updateIfVersion(manager: EntityManager, row: Pick<ReferencePoint, 'id' | 'organizationId' | 'version'>, changes: Partial<ReferencePoint>): Promise<boolean> {
    const result = await manager
      .createQueryBuilder()
      .update(ReferencePoint)
      .set({ ...changes, version: () => '"version" + 1' })
      .where({ id: row.id, organizationId: row.organizationId, version: row.version })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  async delete(manager: EntityManager, id: number): Promise<void> {
    await manager.delete(ReferencePoint, { id });
  }

  /** Every point of a building on the given floors (a replacement of the set). */
  async deleteOnFloors(manager: EntityManager, buildingId: number, floorIds: readonly number[]): Promise<void> {
    if (floorIds.length === 0) return;
    await manager.delete(ReferencePoint, { buildingId, floorId: In([...floorIds]) });
  }
}
