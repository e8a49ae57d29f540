import { Column, Entity, PrimaryColumn } from 'typeorm';
import { VersionedEntity } from '../../common/database/versioned-entity';

/** Why an endpoint stopped receiving deliveries on its own (null while enabled or disabled by a user). */
export type WebhookDisabledReason = 'endpoint_gone';

@Entity('webhook_endpoints')
export class WebhookEndpoint extends VersionedEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ type: 'uuid' })
  organizationId: string;

  @Column({ type: 'text' })
  url: string;

  @Column({ type: 'text', default: '' })
  description: string;

  @Column({ type: 'json' })
  eventTypes: string[];

  /** Building ids (as digit strings, like the events' building_id); empty: every building. */
  @Column({ type: 'json' })
  filterBuildingIds: string[];

  @Column({ type: 'json' })
  filterGeofenceIds: string[];

  @Column({ type: 'boolean', default: true })
  enabled: boolean;

  @Column({ type: 'varchar', length: 32, nullable: true })
  disabledReason: WebhookDisabledReason | null;

  /** The signing secret, sealed (SecretBox): it must be read back to sign, so it cannot be a hash. */
  @Column({ type: 'text' })
  secretSealed: string;

  /** During a rotation the old secret also signs, until previousSecretExpiresAt. */
  @Column({ type: 'text', nullable: true })
  previousSecretSealed: string | null;

  @Column({ type: Date, nullable: true })
  previousSecretExpiresAt: Date | null;
}
