import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * pending: waiting for its first attempt (or a manual retry); failed: the last attempt failed
 * and another is scheduled; succeeded; dead: no attempt left (listed and replayable).
 */
export type DeliveryStatus = 'pending' | 'failed' | 'succeeded' | 'dead';
export const DELIVERY_STATUSES: DeliveryStatus[] = ['pending', 'failed', 'succeeded', 'dead'];

@Entity('webhook_deliveries')
export class WebhookDelivery {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ type: 'uuid' })
  organizationId: string;

  @Column({ type: 'uuid' })
  endpointId: string;

  @Column({ type: 'varchar', length: 64 })
  messageId: string;

  @Column({ type: 'varchar', length: 64 })
  eventType: string;

  @Column({ type: Date })
  eventTime: Date;

  @Column({ type: 'text' })
  payload: string;

  @Column({ type: 'varchar', length: 16 })
  status: DeliveryStatus;

  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @Column({ type: Date, nullable: true })
  nextAttemptAt: Date | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  leaseOwner: string | null;

  @Column({ type: Date, nullable: true })
  leaseExpiresAt: Date | null;

  @Column({ type: 'integer', nullable: true })
  lastStatusCode: number | null;

  @Column({ type: 'text', nullable: true })
  lastError: string | null;

  @Column({ type: Date, nullable: true })
  lastAttemptAt: Date | null;

  @Column({ type: Date })
  createdAt: Date;

  @Column({ type: Date })
  updatedAt: Date;
}

@Entity('webhook_delivery_attempts')
export class WebhookDeliveryAttempt {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ type: 'uuid' })
  deliveryId: string;

  @Column({ type: 'integer' })
  attempt: number;

  @Column({ type: Date })
  startedAt: Date;

  @Column({ type: 'integer' })
  durationMs: number;

  @Column({ type: 'integer', nullable: true })
  statusCode: number | null;

  @Column({ type: 'text', nullable: true })
  error: string | null;

  @Column({ type: 'varchar', length: 64 })
  instance: string;
}
