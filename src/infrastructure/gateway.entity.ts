import { Column, Entity } from 'typeorm';
import type { GatewayFormat } from './gateway-formats';
import { PlacedTransmitter } from './transmitter.entity';

/** A fixed BLE receiver (issue 39): placed on a floor like a beacon, known by the hardware id its messages carry. */
@Entity('gateways')
export class Gateway extends PlacedTransmitter {
  /** Metres above the floor; null when not given. */
  @Column({ type: 'double precision', nullable: true })
  heightM: number | null;

  /** normaliseHardwareId: a MAC as `aabbccddeeff`, a node name lower case; unique in its organization. */
  @Column({ type: 'varchar', length: 128 })
  hardwareId: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  name: string;

  @Column({ type: 'varchar', length: 16 })
  format: GatewayFormat;
}
