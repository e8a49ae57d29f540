import { VersionedEntity } from '../../common/database/versioned-entity';
import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { ConnectorType, RouteSettings } from './router';

export interface PathNode {
  id: number;
  floor_id: number;
  x: number;
  y: number;
  lat: number;
  lng: number;
}

export type LinkOrigin = 'both' | 'source' | 'target';

export interface PathLink {
  source: number;
  target: number;
  origin: LinkOrigin;
  tags: string[];
  accessible: boolean;
  /** The connector type of a floor link as given; null: derived from its tags (router/connectors.ts). */
  connector: ConnectorType | null;
}

/** The wayfinding graph of one building, stored whole: it is always read and replaced whole. */
@Entity('paths')
export class PathGraph extends VersionedEntity {
  @PrimaryColumn({ type: 'integer' })
  buildingId: number;

  @Column({ type: 'uuid' })
  organizationId: string;

  @Column({ type: 'json' })
  nodes: PathNode[];

  @Column({ type: 'json' })
  links: PathLink[];

  /** How routes over it are timed and snapped, as set (null: every field its default). */
  @Column({ type: 'json', nullable: true })
  routeSettings: Partial<RouteSettings> | null;
}
