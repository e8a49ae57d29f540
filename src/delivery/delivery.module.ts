import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/audit.module';
import { BuildingsModule } from '../cartography/buildings/buildings.module';
import { SecretBox } from '../common/crypto/secret-box';
import { authConfig, AuthConfig } from '../config/auth.config';
import { GeofencesModule } from '../cartography/geofences/geofences.module';
import { GeofencingModule } from '../geofencing/geofencing.module';
import { GeofenceEventsToWebhooks } from './webhooks/geofence-events-to-webhooks';
import { DELIVERY_HANDOFF, DELIVERY_WAKE, DeliveryHandoff, WebhookDeliveriesService } from './webhooks/webhook-deliveries.service';
import { WebhookDelivery, WebhookDeliveryAttempt } from './webhooks/webhook-delivery.entity';
import { WebhookDeliveryWorker } from './webhooks/webhook-delivery.worker';
import { WebhookEndpoint } from './webhooks/webhook-endpoint.entity';
import { WEBHOOK_SECRET_BOX, WebhookEndpointsService } from './webhooks/webhook-endpoints.service';
import { WebhookReplayService } from './webhooks/webhook-replay.service';
import { WebhooksController } from './webhooks/webhooks.controller';

/**
 * Webhook delivery: endpoints and their signing secrets, the deliveries each event enqueues, the
 * worker that claims, paces, sends and records them, and replays. The live streams (SSE and
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
    { provide: DELIVERY_WAKE, inject: [WebhookDeliveryWorker], useFactory: (worker: WebhookDeliveryWorker) => () => worker.announce() },
    {
      provide: DELIVERY_HANDOFF,
      inject: [WebhookDeliveryWorker],
      useFactory: (worker: WebhookDeliveryWorker): DeliveryHandoff => ({
        freeSlots: (endpointId) => worker.handoffRoom(endpointId),
        leaseToWrite: (now) => worker.handoffLease(now),
        holdSlots: (endpointId, count) => worker.reserveHandoff(endpointId, count),
        send: (endpoint, deliveries) => worker.accept(endpoint, deliveries),
      }),
    },
    // Signing secrets must be read back to sign, so they are sealed, never stored in clear.
    { provide: WEBHOOK_SECRET_BOX, inject: [authConfig.KEY], useFactory: (config: AuthConfig) => new SecretBox(config.sealingSecret, 'webhook-secrets/v1') },
  ],
  exports: [WebhookEndpointsService, WebhookDeliveriesService],
})
export class DeliveryModule {}
