import { Column, PrimaryGeneratedColumn } from 'typeorm';
import { VersionedEntity } from '../common/database/versioned-entity';

/** What wifi access points and BLE beacons share: where they are, in both coordinate systems. */
export abstract class PlacedTransmitter extends VersionedEntity {
  @PrimaryGeneratedColumn('increment')
  id: number;

  @Column({ type: 'uuid' })
  organizationId: string;

  @Column({ type: 'integer' })
  buildingId: number;

  @Column({ type: 'integer' })
  floorId: number;

  @Column({ type: 'double precision' })
  latitude: number;

  @Column({ type: 'double precision' })
  longitude: number;

  /** Floor metres in the building's frame, derived from lat/lng (or the reverse) when written. */
  @Column({ type: 'double precision' })
  x: number;

  @Column({ type: 'double precision' })
  y: number;
}
