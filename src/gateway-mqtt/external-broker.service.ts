import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { connect, type IPublishPacket, type MqttClient } from 'mqtt';
import { randomBytes } from 'node:crypto';
import { appConfig, AppConfig } from '../config/app.config';
import { GatewayIngestService } from '../infrastructure/gateway-ingest.service';
import { MQTT_ORGANIZATIONS_ROOT, splitOrganizationTopic } from '../organizations/mqtt-topic-prefix';

/** After a failed store the message is tried again, waiting this long at most between tries, until it is durable or the server stops. */
const MAX_RETRY_MS = 5_000;

/** The broker's address for logs: never its password. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(an MQTT_URL that is not a URL)';
  }
}

/**
 * An external broker's gateways (MQTT_URL, issue 39): one shared subscription `$share/{group}/org/#` covers every
 * organization, those created later too (the prefix `org/{organization_id}` is derived, see mqtt-topic-prefix.ts);
 * the prefix decides the organization and the broker's ACL keeps each gateway to its own. Instances in one group
 * take each message once. MQTT.js sends the PUBACK when `handleMessage`'s callback is called, after the
 * observations are durable.
 */
@Injectable()
export class ExternalBrokerService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(ExternalBrokerService.name);
  private client: MqttClient | null = null;
  private stopping = false;

  constructor(
    @Inject(appConfig.KEY) private readonly config: AppConfig,
    private readonly ingest: GatewayIngestService,
  ) {}

  /** The subscription every instance makes. */
  get subscription(): string {
    return `$share/${this.config.mqtt.shareGroup}/${MQTT_ORGANIZATIONS_ROOT}/#`;
  }

  async onApplicationBootstrap(): Promise<void> {
    const { url } = this.config.mqtt;
    if (url === null) return;
    const client = connect(url, {
      clientId: `cartograph-${randomBytes(6).toString('hex')}`,
      clean: true,
      reconnectPeriod: 2_000,
      connectTimeout: 10_000,
      resubscribe: true,
    });
    this.client = client;
    client.handleMessage = (packet, done) => {
      this.take(packet).then(
        () => done(),
        (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
      );
    };
    client.on('error', (error) => this.logger.warn(`External MQTT broker ${redactedUrl(url)}: ${error.message}`));
    client.on('connect', () => {
      client.subscribe(this.subscription, { qos: 1 }, (error, granted) => {
        if (error) this.logger.warn(`Subscribing to ${this.subscription} failed: ${error.message}`);
        else if (granted?.some((grant) => grant.qos === 128)) this.logger.warn(`The broker refused the subscription ${this.subscription} (check its ACL)`);
        else this.logger.log(`Subscribed to ${this.subscription} on ${redactedUrl(url)}`);
      });
    });
    // Start-up does not wait for the broker: a broker that is down is retried, and says so in the log.
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 10_000);
      client.once('connect', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    const client = this.client;
    this.client = null;
    if (client) await client.endAsync(true);
  }

  private async take(packet: IPublishPacket): Promise<void> {
    const split = splitOrganizationTopic(packet.topic);
    if (split === null) return;
    const payload = typeof packet.payload === 'string' ? packet.payload : Buffer.from(packet.payload);
    for (let attempt = 0; ; attempt += 1) {
      try {
        await this.ingest.take({ organizationId: split.organizationId, buildingIds: null }, { topic: split.topic, payload });
        return;
      } catch (error) {
        if (this.stopping) throw error;
        this.logger.warn(`A gateway message could not be stored, trying again: ${String(error)}`);
        await new Promise((resolve) => setTimeout(resolve, Math.min(MAX_RETRY_MS, 100 * 2 ** attempt)));
      }
    }
  }
}
