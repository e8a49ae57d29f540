import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { InfrastructureModule } from '../infrastructure/infrastructure.module';
import { EmbeddedBrokerService } from './embedded-broker.service';
import { ExternalBrokerService } from './external-broker.service';

/** The MQTT ways in for gateways (issue 39): the embedded broker (MQTT_PORT) and an external broker's subscription (MQTT_URL). */
@Module({
  imports: [AuthModule, InfrastructureModule],
  providers: [EmbeddedBrokerService, ExternalBrokerService],
  exports: [EmbeddedBrokerService, ExternalBrokerService],
})
export class GatewayMqttModule {}
