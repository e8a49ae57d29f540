import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import { readFileSync } from 'node:fs';
import { AddressInfo, createServer, Server, Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { checkAccess } from '../access/access-policy';
import { AccessScope } from '../access/permissions';
import { Principal } from '../access/principal';
import { ApiKeysService } from '../auth/api-keys/api-keys.service';
import { appConfig, AppConfig } from '../config/app.config';
import { GatewayIngestService } from '../infrastructure/gateway-ingest.service';
import { mqttConnectionsRefused } from '../infrastructure/gateway.metrics';
import { guardedConnection } from './mqtt-frame-guard';

/** A connection's key is looked up again this often, so a key deleted or disabled on any instance stops publishing. */
const RECHECK_KEY_MS = 30_000;
const NOT_AUTHORIZED = 5;
const SERVER_UNAVAILABLE = 3;
/**
 * A packet announcing more than this is not read at all: the connection is closed. Below it, a message over the limit
 * is read and counted on its gateway's health (`message_size`); the margin covers a topic (up to 64 KiB) and MQTT 5
 * properties, and twice the limit leaves the health to tell most oversized messages.
 */
const framingBound = (maxMessageBytes: number): number => 2 * maxMessageBytes + 65_536 + 1024;

interface Session {
  principal: Principal;
  checkedMs: number;
}

function refusal(message: string, returnCode: number): AuthenticateError {
  return Object.assign(new Error(message), { returnCode }) as AuthenticateError;
}

/**
 * The embedded MQTT broker (Aedes, issue 39), started when MQTT_PORT is set. The password is an API key that may post
 * positions (any username); the key decides the organization whatever the topic. A publish is taken by the same
 * `GatewayIngestService.take` as HTTP inside `authorizePublish`, which Aedes runs before it sends the PUBACK (QoS 1)
 * or PUBREC (QoS 2): a gateway's acknowledgement means its observations are durable. Nothing is forwarded to
 * subscribers: gateways only publish, so every subscription is refused (SUBACK 128) and nothing is retained.
 */
@Injectable()
export class EmbeddedBrokerService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(EmbeddedBrokerService.name);
  private broker: Aedes | null = null;
  private server: Server | null = null;
  private readonly sessions = new WeakMap<Client, Session>();
  /** Open connections per organization on this instance (a broker is per instance). */
  private readonly connections = new Map<string, Set<Client>>();

  constructor(
    @Inject(appConfig.KEY) private readonly config: AppConfig,
    private readonly apiKeys: ApiKeysService,
    private readonly ingest: GatewayIngestService,
  ) {}

  /** The port the broker listens on (MQTT_PORT=0 picks a free one), or null when there is none. */
  get port(): number | null {
    const address = this.server?.address();
    return address && typeof address === 'object' ? (address as AddressInfo).port : null;
  }

  async onApplicationBootstrap(): Promise<void> {
    const { port, host } = this.config.mqtt;
    if (port === null) return;
    const broker = await Aedes.createBroker({
      preConnect: (_client, packet, done) => {
        // A will would be published by the broker later, outside any check of ours: gateways get none.
        delete (packet as { will?: unknown }).will;
        done(null, true);
      },
      authenticate: (client, _username, password, done) => {
        this.authenticate(client, password).then(
          () => done(null, true),
          (error: AuthenticateError) => done(error, false),
        );
      },
      authorizePublish: (client, packet, done) => {
        if (!client) return done(new Error('no client'));
        packet.retain = false;
        this.publish(client, packet.topic, packet.payload).then(
          () => done(null),
          (error: unknown) => {
            this.logger.warn(`A gateway message could not be stored (the client is disconnected unacknowledged, to send it again): ${String(error)}`);
            done(error instanceof Error ? error : new Error(String(error)));
          },
        );
      },
      authorizeSubscribe: (_client, _subscription, done) => done(null, null),
      authorizeForward: () => null,
    });
    broker.on('clientError', (_client, error) => this.logger.debug?.(`MQTT client error: ${error.message}`));
    const bound = framingBound(this.config.mqtt.maxMessageBytes);
    const take = (socket: Socket) => broker.handle(guardedConnection(socket, bound, () => mqttConnectionsRefused.inc({ outcome: 'oversized_packet' })));
    const { tlsCertFile, tlsKeyFile } = this.config.mqtt;
    const server = tlsCertFile !== null && tlsKeyFile !== null ? createTlsServer({ cert: readFileSync(tlsCertFile), key: readFileSync(tlsKeyFile) }, take) : createServer(take);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host ?? this.config.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.broker = broker;
    this.server = server;
    this.logger.log(`MQTT broker for gateways listening on port ${this.port}${this.config.mqtt.tlsCertFile === null ? '' : ' (TLS)'}`);
  }

  async onModuleDestroy(): Promise<void> {
    const { broker, server } = this;
    this.broker = null;
    this.server = null;
    // Stop accepting, then disconnect every client (a message whose store has not committed gets no acknowledgement).
    const serverClosed = server ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve();
    if (broker) await new Promise<void>((resolve) => broker.close(() => resolve()));
    await serverClosed;
  }

  private async authenticate(client: Client, password: Readonly<Buffer | undefined>): Promise<void> {
    // The key is the password: it is never logged or echoed, only hashed by the key service.
    let principal: Principal | false;
    try {
      principal = password && password.length > 0 && password.length <= 256 ? await this.apiKeys.authenticate(password.toString('utf8')) : false;
    } catch {
      throw refusal('Server unavailable', SERVER_UNAVAILABLE);
    }
    if (!principal || checkAccess(principal, { scope: AccessScope.PositionsWrite }) !== null) {
      mqttConnectionsRefused.inc({ outcome: 'not_authorized' });
      throw refusal('Not authorized', NOT_AUTHORIZED);
    }
    const open = this.connections.get(principal.organizationId) ?? new Set<Client>();
    if (open.size >= this.config.mqtt.connectionsPerOrganization) {
      mqttConnectionsRefused.inc({ outcome: 'connections' });
      await this.ingest.noteLimit(principal, client.id, 'connections').catch(() => undefined);
      throw refusal('Too many connections for the organization', SERVER_UNAVAILABLE);
    }
    if (client.conn.destroyed) throw refusal('Gone', SERVER_UNAVAILABLE);
    // Client ids are per organization: the same id in another organization must not take this session over.
    (client as { id: string }).id = `${principal.organizationId}/${client.id}`;
    open.add(client);
    this.connections.set(principal.organizationId, open);
    client.conn.once('close', () => {
      open.delete(client);
      if (open.size === 0 && this.connections.get(principal.organizationId) === open) this.connections.delete(principal.organizationId);
    });
    this.sessions.set(client, { principal, checkedMs: Date.now() });
  }

  private async publish(client: Client, topic: string, payload: Buffer | string): Promise<void> {
    const session = this.sessions.get(client);
    if (!session) throw new Error('not authenticated');
    if (Date.now() - session.checkedMs > RECHECK_KEY_MS) {
      const principal = session.principal.apiKeyId === null ? null : await this.apiKeys.principalOfKey(session.principal.apiKeyId);
      if (!principal || principal.organizationId !== session.principal.organizationId || checkAccess(principal, { scope: AccessScope.PositionsWrite }) !== null)
        throw new Error('the key no longer may post positions');
      session.principal = principal;
      session.checkedMs = Date.now();
    }
    // Every outcome is acknowledged: a message not understood or over a limit is counted on the gateway's health, never retried.
    await this.ingest.take(session.principal, { topic, payload });
  }
}
