import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/audit.module';
import { BuildingsModule } from '../cartography/buildings/buildings.module';
import { SecretBox } from '../common/crypto/secret-box';
import { authConfig, AuthConfig } from '../config/auth.config';
import { GeofencesModule } from '../cartography/geofences/geofences.module';
import { GeofencingModule } from '../geofencing/geofencing.module';
import { GeofenceEventsToWebhooks } from './webhooks/geofence-events-to-webhooks';
import { WebhookDeliveriesService } from './webhooks/webhook-deliveries.service';
import { DeliveryHandoff } from './webhooks/delivery-handoff';
import { DeliveryLeasesRepository } from './webhooks/delivery-leases.repository';
import { DeliveryWake } from './webhooks/delivery-wake';
import { NoHandoff, SqliteHandoff } from './worker/handoffs';
import { WorkerHeartbeatsRepository } from './worker/worker-heartbeats.repository';
import { SoleWorker, WorkerHeartbeats, WorkerLiveness } from './worker/worker-liveness';
import { SqlDialect } from '../database/sql-dialect';
import { TransactionRunner } from '../database/transactions';
import { webhooksConfig, WebhooksConfig } from '../config/webhooks.config';
import { WebhookDelivery, WebhookDeliveryAttempt } from './webhooks/webhook-delivery.entity';
import { WebhookDeliveryWorker } from './worker/webhook-delivery.worker';
import { WebhookEndpoint } from './webhooks/webhook-endpoint.entity';
import { WEBHOOK_SECRET_BOX, WebhookEndpointsService } from './webhooks/webhook-endpoints.service';
import { WebhookReplayService } from './webhooks/webhook-replay.service';
import { WebhooksController } from './webhooks/webhooks.controller';

/**
 * Webhook delivery: endpoints and their signing secrets, the deliveries each event enqueues and
 * replays (./webhooks), and the worker that claims, paces, sends and records them (./worker). The live streams (SSE and
 * WebSocket) are StreamsModule's, in ./streams.
 */
@Module({
  imports: [TypeOrmModule.forFeature([WebhookEndpoint, WebhookDelivery, WebhookDeliveryAttempt]), AuditModule, BuildingsModule, GeofencesModule, GeofencingModule],
  controllers: [WebhooksController],
  providers: [
    WebhookEndpointsService,
    WebhookDeliveriesService,
    WebhookDeliveryWorker,
    WebhookReplayService,
    GeofenceEventsToWebhooks,
    DeliveryWake,
    DeliveryLeasesRepository,
    WorkerHeartbeatsRepository,
    // The database decides, once, how a dead worker's leases come back and whether fresh deliveries skip the claim.
    {
      provide: WorkerLiveness,
      inject: [SqlDialect, TransactionRunner, WorkerHeartbeatsRepository, webhooksConfig.KEY],
      useFactory: (dialect: SqlDialect, transactions: TransactionRunner, heartbeats: WorkerHeartbeatsRepository, config: WebhooksConfig): WorkerLiveness =>
        dialect.kind === 'postgres' ? new WorkerHeartbeats(transactions, heartbeats, config.heartbeatMs) : new SoleWorker(transactions, heartbeats),
    },
    {
      provide: DeliveryHandoff,
      inject: [SqlDialect, WebhookDeliveryWorker, TransactionRunner, webhooksConfig.KEY],
      useFactory: (dialect: SqlDialect, worker: WebhookDeliveryWorker, transactions: TransactionRunner, config: WebhooksConfig): DeliveryHandoff =>
        dialect.kind === 'postgres' ? new NoHandoff() : new SqliteHandoff(worker.instance, config.leaseMs, worker.queues, transactions),
    },
    // Signing secrets must be read back to sign, so they are sealed, never stored in clear.
    { provide: WEBHOOK_SECRET_BOX, inject: [authConfig.KEY], useFactory: (config: AuthConfig) => new SecretBox(config.sealingSecret, 'webhook-secrets/v1') },
  ],
  exports: [WebhookEndpointsService, WebhookDeliveriesService],
})
export class DeliveryModule {}
