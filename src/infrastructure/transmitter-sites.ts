import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { EntityManager, IsNull } from 'typeorm';
import { BuildingFrame } from '../common/geometry/cartesian';
import { Floor } from '../cartography/floors/floor.entity';
import { PathGraph } from '../cartography/paths/path-graph.entity';
import type { TrackerSpace } from './tracker/tracker-contract';
import { TransmitterSitesRepository } from './transmitter-sites.repository';
import { BleBeacon } from './ble-beacon.entity';
import { TransmitterIndex } from './estimator/scan-estimator';
import { beaconKey, DEFAULT_WIFI_REFERENCE_RSSI, referenceRssiOf } from './transmitter-radio';
import { WifiAccessPoint } from './wifi-access-point.entity';
import { DEFAULT_STOREY_M, KnownTransmitter } from './estimator/transmitter';

/** A live building of the caller with its transmitters on live floors, indexed for the estimator. */
export interface TransmitterSite {
  buildingId: number;
  organizationId: string;
  frame: BuildingFrame;
  /** The transmitters as registered (no radio model applied). */
  index: TransmitterIndex;
  /** The building's revision and its infrastructure revision, as the key of `index`. */
  key: string;
  /** Revisions of the building's stored radio models and of its reference points. */
  modelRevision: number;
  referenceRevision: number;
  /** Where people walk: the building's rectangle, its floors' levels and its paths graph (for the tracker). */
  space: TrackerSpace;
  /** The building's tracking settings. */
  tracking: TrackingSettings;
}

/** A building's tracking settings (`building_tracking`; a building without a row has the defaults). */
export interface TrackingSettings {
  /** Positions from scans are tracked (a filter over each device's scans), not placed one by one. */
  scans: boolean;
  /** Positions the devices report themselves are filtered (off by default: the apps filter them already). */
  positions: boolean;
  /** A track starts afresh after this long without a scan (or a filtered fix). */
  resetAfterSeconds: number;
}

export const DEFAULT_TRACKING_SETTINGS: TrackingSettings = { scans: true, positions: false, resetAfterSeconds: 30 };

/** A `building_tracking` row's settings (booleans are 0/1 on SQLite), or the defaults where the building has none. */
export function trackingSettingsOf(
  row: { scans: boolean | number | null; positions: boolean | number | null; reset_after_seconds: number | string | null } | null | undefined,
): TrackingSettings {
  if (!row || row.scans === null) return DEFAULT_TRACKING_SETTINGS;
  return { scans: Boolean(row.scans), positions: Boolean(row.positions), resetAfterSeconds: Number(row.reset_after_seconds) };
}

interface CachedIndex {
  /** The building's revision (its floors) and its infrastructure revision when the index was read. */
  key: string;
  index: TransmitterIndex;
  /** The floors' levels and the paths graph, read with the transmitters (a paths write bumps the building's revision). */
  floors: TrackerSpace['floors'];
  paths: TrackerSpace['paths'];
  /** The space of the last frame it was asked for, kept so that a tracker built for it is reused. */
  space?: TrackerSpace;
}

/**
 * How many transmitters the cache holds across buildings: an entry costs about 300 bytes, so
 * this is about 30 MB, a hundred sites of a thousand transmitters. A larger building is read
 * per batch and not kept.
 */
const MAX_CACHED_TRANSMITTERS = 100_000;

/**
 * The transmitters of each building, cached in this process for positions from scans and
 * keyed by two revisions in the database: the infrastructure revision, which every write to
 * the building's access points and beacons bumps in its own transaction (`bump`), and the
 * building revision, which floor writes bump (a deleted floor's transmitters are unused).
 * The one query a batch makes for its buildings (their frames, for lat/lng) reads both, so
 * every instance learns there whether its copy is still current: nothing else to invalidate,
 * nothing that one instance knows and another does not.
 */
@Injectable()
export class TransmitterSites {
  private readonly cache = new LRUCache<number, CachedIndex>({ maxSize: MAX_CACHED_TRANSMITTERS, sizeCalculation: (entry) => entry.index.size + 1 });
  /** Reads under way, so concurrent batches for one building share one read. */
  private readonly loading = new Map<string, Promise<CachedIndex>>();

  constructor(private readonly rows: TransmitterSitesRepository) {}

  /** The live buildings among `buildingIds` of the organization, by id; missing, deleted or foreign ones are absent. */
  async forBuildings(manager: EntityManager, organizationId: string, buildingIds: number[]): Promise<Map<number, TransmitterSite>> {
    const sites = new Map<number, TransmitterSite>();
    const distinct = [...new Set(buildingIds)];
    if (distinct.length === 0) return sites;
    const rows = await this.rows.sites(organizationId, distinct);
    await Promise.all(
      rows.map(async (row) => {
        const buildingId = Number(row.id);
        const key = `${Number(row.building_revision)}:${Number(row.infrastructure_revision)}`;
        const cached = this.cache.get(buildingId);
        const entry = cached?.key === key ? cached : await this.loadOnce(manager, buildingId, key);
        const frame = { latitude: Number(row.latitude), longitude: Number(row.longitude), width: Number(row.width), length: Number(row.length), rotation: Number(row.rotation) };
        if (entry.space?.width !== frame.width || entry.space.length !== frame.length)
          entry.space = { buildingId, width: frame.width, length: frame.length, floors: entry.floors, paths: entry.paths };
        const tracking = trackingSettingsOf({ scans: row.tracking_scans, positions: row.tracking_positions, reset_after_seconds: row.tracking_reset_after_seconds });
        sites.set(buildingId, {
          buildingId,
          organizationId,
          frame,
          index: entry.index,
          key,
          modelRevision: Number(row.model_revision),
          referenceRevision: Number(row.reference_revision),
          space: entry.space,
          tracking,
        });
      }),
    );
    return sites;
  }

  /** Call in the transaction of every write to a building's transmitters. */
  async bump(manager: EntityManager, buildingId: number): Promise<void> {
    await this.rows.bump(manager, buildingId);
  }

  /** Forgets everything this instance cached (tests that count queries start from here). */
  flush(): void {
    this.cache.clear();
  }

  private loadOnce(manager: EntityManager, buildingId: number, key: string): Promise<CachedIndex> {
    const loadKey = `${buildingId}:${key}`;
    let pending = this.loading.get(loadKey);
    if (!pending) {
      // Read after the revisions: the transmitters are at least as new as the key they are cached under.
      pending = this.load(manager, buildingId, key)
        .then((entry) => {
          this.cache.set(buildingId, entry);
          return entry;
        })
        .finally(() => this.loading.delete(loadKey));
      this.loading.set(loadKey, pending);
    }
    return pending;
  }

  private async load(manager: EntityManager, buildingId: number, key: string): Promise<CachedIndex> {
    const [floors, wifi, ble, graph] = await Promise.all([
      manager.find(Floor, { select: { id: true, level: true, levelHeight: true }, where: { buildingId, deletedAt: IsNull() } }),
      manager.find(WifiAccessPoint, { select: { id: true, bssid: true, floorId: true, x: true, y: true }, where: { buildingId } }),
      manager.find(BleBeacon, { select: { id: true, uuid: true, major: true, minor: true, txPower: true, floorId: true, x: true, y: true }, where: { buildingId } }),
      manager.findOne(PathGraph, { select: { buildingId: true, nodes: true, links: true }, where: { buildingId } }),
    ]);
    const heights = floorHeights(floors);
    const transmitters: KnownTransmitter[] = [];
    for (const row of wifi) {
      const floor = heights.get(row.floorId);
      if (floor) transmitters.push({ key: row.bssid, kind: 'wifi', id: row.id, floorId: row.floorId, x: row.x, y: row.y, referenceRssi: DEFAULT_WIFI_REFERENCE_RSSI, ...floor });
    }
    for (const row of ble) {
      const floor = heights.get(row.floorId);
      if (floor)
        transmitters.push({
          key: beaconKey(row.uuid, row.major, row.minor),
          kind: 'ble',
          id: row.id,
          floorId: row.floorId,
          x: row.x,
          y: row.y,
          referenceRssi: referenceRssiOf(row.txPower),
          ...floor,
        });
    }
    const live = new Map(floors.map((floor) => [floor.id, { level: floor.level }]));
    const nodes = (graph?.nodes ?? []).filter((node) => live.has(node.floor_id)).map((node) => ({ id: node.id, floorId: node.floor_id, x: node.x, y: node.y }));
    const known = new Set(nodes.map((node) => node.id));
    const links = (graph?.links ?? [])
      .filter((link) => known.has(link.source) && known.has(link.target))
      .map((link) => ({ source: link.source, target: link.target, tags: link.tags }));
    return { key, index: new TransmitterIndex(transmitters), floors: live, paths: nodes.length > 0 && links.length > 0 ? { nodes, links } : null };
  }
}

/**
 * Each live floor's level and its height above the building's lowest level (metres): the
 * storeys below it, each its floor's `level_height` or the default where it has none (or no
 * floor at that level). The radio model reaches through one floor with it.
 */
export function floorHeights(floors: ReadonlyArray<Pick<Floor, 'id' | 'level' | 'levelHeight'>>): Map<number, { level: number; z: number }> {
  const heightOf = new Map<number, number>();
  for (const floor of floors) if (floor.levelHeight !== null && floor.levelHeight > 0) heightOf.set(floor.level, floor.levelHeight);
  const lowest = Math.min(...floors.map((floor) => floor.level));
  const heights = new Map<number, { level: number; z: number }>();
  for (const floor of floors) {
    let z = 0;
    for (let level = lowest; level < floor.level; level += 1) z += heightOf.get(level) ?? DEFAULT_STOREY_M;
    heights.set(floor.id, { level: floor.level, z });
  }
  return heights;
}
