import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A tag (issue 39): a device's advertised identity, one row per canonical key it is matched by
 * (`mac:…`, `ibeacon:…`, `eddystone:…`, `espresense:…`). The key is the primary key within the
 * organization, so a key belongs to one device and an observed key is found by an indexed lookup.
 */
@Entity('device_tag_keys')
export class DeviceTagKey {
  @PrimaryColumn({ type: 'uuid' })
  organizationId: string;

  @PrimaryColumn({ type: 'varchar', length: 255 })
  key: string;

  @Column({ type: 'varchar', length: 64 })
  deviceId: string;

  /** The identity as the API shows it, JSON; the same on each of the device's keys. */
  @Column({ type: 'text' })
  identity: string;

  @Column({ type: Date })
  createdAt: Date;
}
