import { EntityManager } from 'typeorm';
import { ApiError } from '../../common/errors/api-error';
import { Geofence } from '../geofences/geofence.entity';
import { PathGraph } from '../paths/path-graph.entity';
import { Poi } from '../pois/poi.entity';

export type DependentScope = { organizationId: string } & ({ buildingId: number; floorId?: never } | { floorId: number; buildingId: number });

/**
 * The rule shared by building and floor deletion: live geofences, POIs or path nodes on it
 * make it a 409, unless the caller asked to cascade, which soft-deletes the geofences,
 * deletes the POIs and removes the path nodes (with their links) in the same transaction.
 */
export async function releaseDependents(manager: EntityManager, scope: DependentScope, cascade: boolean, now: Date): Promise<void> {
  const onFloor = scope.floorId !== undefined;
  const where = onFloor ? { organizationId: scope.organizationId, floorId: scope.floorId } : { organizationId: scope.organizationId, buildingId: scope.buildingId };
  const liveGeofences = { ...where, deleted: false };
  // One after another: a transaction's queries share one connection.
  const geofences = await manager.countBy(Geofence, liveGeofences);
  const pois = await manager.countBy(Poi, where);
  const graph = await manager.findOneBy(PathGraph, { buildingId: scope.buildingId, organizationId: scope.organizationId });
  const pathNodes = graph ? (onFloor ? graph.nodes.filter((node) => node.floor_id === scope.floorId).length : graph.nodes.length) : 0;
  if (geofences + pois + pathNodes === 0) {
    // An empty graph blocks nothing but must not outlive its building.
    if (graph && !onFloor) await manager.delete(PathGraph, { buildingId: scope.buildingId });
    return;
  }
  if (!cascade) {
    const parts = [geofences ? `${geofences} live geofence(s)` : '', pois ? `${pois} POI(s)` : '', pathNodes ? `${pathNodes} path node(s)` : ''].filter(Boolean);
    throw ApiError.conflict(`${parts.join(', ')} still belong to it; delete them first or pass cascade=true`);
  }
  if (geofences) {
    await manager
      .createQueryBuilder()
      .update(Geofence)
      .set({ deleted: true, updatedAt: now, version: () => '"version" + 1' })
      .where(liveGeofences)
      .execute();
  }
  if (pois) await manager.delete(Poi, where);
  if (graph && pathNodes) {
    if (!onFloor) {
      await manager.delete(PathGraph, { buildingId: scope.buildingId });
    } else {
      const nodes = graph.nodes.filter((node) => node.floor_id !== scope.floorId);
      const kept = new Set(nodes.map((node) => node.id));
      const links = graph.links.filter((link) => kept.has(link.source) && kept.has(link.target));
      await manager.update(PathGraph, { buildingId: scope.buildingId }, { nodes, links, version: graph.version + 1, updatedAt: now });
    }
  }
}
