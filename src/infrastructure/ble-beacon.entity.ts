import { Column, Entity } from 'typeorm';
import { PlacedTransmitter } from './transmitter.entity';

@Entity('ble_beacons')
export class BleBeacon extends PlacedTransmitter {
  /** Proximity UUID, lower case. */
  @Column({ type: 'varchar', length: 36 })
  uuid: string;

  @Column({ type: 'integer' })
  major: number;

  @Column({ type: 'integer' })
  minor: number;

  /** dBm: the calibrated RSSI at 1 m (iBeacon "measured power"), or the radiated power when above −30. */
  @Column({ type: 'integer', nullable: true })
  txPower: number | null;

  /** Percent, as last reported by an installer or a gateway. */
  @Column({ type: 'integer', nullable: true })
  battery: number | null;
}
