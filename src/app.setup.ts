import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { getDataSourceToken } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { FastifyRequest } from 'fastify';
import type { DataSource } from 'typeorm';
import { SECURITY } from './access/decorators/access.decorator';
import { registerEarlyAuthentication } from './auth/early-authentication';
import { ApiExceptionFilter } from './common/errors/api-exception.filter';
import { documentIdempotencyKey } from './idempotency/idempotency.docs';
import { ErrorResponseDto } from './common/errors/error-response.dto';
import { wantsRawJson } from './common/http/raw-json-body';
import { registerRouteBodyLimits } from './common/http/body-limit';
import { registerCsvBodyParser } from './common/http/csv-body';
import { parseQueryString } from './common/http/querystring';
import { securityHeaders } from './common/http/security-headers';
import { registerTransportHardening, transportServerOptions } from './common/http/transport';
import { VersionedResponseInterceptor } from './common/http/versioned';
import { registerMethodNotAllowed } from './common/http/method-not-allowed';
import { completeOpenApiDocument } from './common/http/openapi-document';
import { rootLogger } from './common/logging/logger';
import { LogSink, loggerToSink, registerRequestLogging } from './common/logging/request-logging';
import { registerMetrics } from './common/metrics/metrics.http';
import { ApiValidationPipe } from './common/validation/validation.pipe';
import { AppConfig } from './config/app.config';
import { registerDashboard } from './dashboard/dashboard';
import { poolCounts } from './database/pool-counts';
import { StreamsService } from './delivery/streams/streams.service';
import { WebhookDeliveryWorker } from './delivery/worker/webhook-delivery.worker';
import { GeofenceDeadlineSweeper } from './geofencing/events/deadline-sweeper';
import { MAX_IMAGE_BYTES } from './images/images.service';
import { API_VERSION, VersionService } from './version/version.service';

export const API_PREFIX = 'api/v1';
export const BODY_LIMIT_BYTES = 1024 * 1024;

/** HTTP servers that stopped accepting and are letting their last requests finish (see closeApp). */
const draining = new WeakSet<Server>();

/** Nest must not register its own body parsers: configureApp installs ours. */
export const NEST_APP_OPTIONS = { bodyParser: false } as const;

export function createFastifyAdapter(config: Pick<AppConfig, 'trustedProxies' | 'transport'>): FastifyAdapter {
  return new FastifyAdapter({
    ...transportServerOptions(config.transport),
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.trustedProxies.length > 0 ? config.trustedProxies : false,
    routerOptions: { ignoreTrailingSlash: true, querystringParser: parseQueryString },
    genReqId: (request: { headers: Record<string, string | string[] | undefined> }) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && /^[\w.-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    },
    // On SIGTERM: refuse new connections, let in-flight requests finish, drop idle keep-alives.
    forceCloseConnections: 'idle',
  });
}

/**
 * Everything the running server and the e2e tests share: prefix, validation, errors,
 * parsers, security headers, CORS, request logs and the API documentation.
 */
export async function configureApp(app: NestFastifyApplication, config: AppConfig, options: { requestLogSink?: LogSink } = {}): Promise<void> {
  const fastify = app.getHttpAdapter().getInstance();

  app.setGlobalPrefix(API_PREFIX, { exclude: ['health/live', 'health/ready'] });
  app.useGlobalPipes(new ApiValidationPipe());
  app.useGlobalFilters(new ApiExceptionFilter());
  app.useGlobalInterceptors(new VersionedResponseInterceptor());

  // The official client sends `Content-Type: application/json` on bodiless requests
  // (token exchange, DELETE): an empty JSON body means no body, not an error.
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request: FastifyRequest, body: string | Buffer, done) => {
    if (body.length === 0 || (typeof body === 'string' && body.trim() === '')) {
      done(null, undefined);
      return;
    }
    if (wantsRawJson(request)) {
      done(null, body);
      return;
    }
    parseJson(request, body as string, done);
  });

  registerCsvBodyParser(fastify);
  registerRouteBodyLimits(fastify);

  // Contract section 1: PATCH is a synonym of PUT on every resource (both are partial updates).
  fastify.addHook('onRoute', function (route) {
    if (route.method !== 'PUT') return;
    const { path: _path, prefix: _prefix, routePath: _routePath, ...options } = route;
    this.route({ ...options, method: 'PATCH' });
  });

  // While the server drains, every answer closes its connection: a keep-alive client cannot hold it open.
  fastify.addHook('onSend', (request, reply, _payload, done) => {
    if (draining.has(request.server.server)) reply.header('Connection', 'close');
    done();
  });

  registerMethodNotAllowed(fastify);
  const dataSource = app.get<DataSource>(getDataSourceToken());
  registerMetrics(fastify, config.metrics, () => poolCounts(dataSource));
  if (config.logRequests) registerRequestLogging(fastify, options.requestLogSink ? loggerToSink(options.requestLogSink) : rootLogger());

  // Only the dashboard's session cookies are read; nothing is signed by the plugin itself.
  await app.register(cookie);

  // Limits here are the outer bounds; each upload route applies its own.
  await app.register(multipart, { limits: { fileSize: MAX_IMAGE_BYTES, files: 1, fields: 10 } });

  const headers = securityHeaders({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // Swagger UI styles itself inline and shows its logo as a data: URL.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        scriptSrc: ["'self'"],
        // Self-hosted servers often run on plain HTTP inside a LAN: upgrading would break the docs page.
        upgradeInsecureRequests: null,
      },
    },
    // Sent per request below: over plain HTTP (a LAN, or behind a TLS proxy that is not trusted)
    // it would pin browsers to an HTTPS the server may not have.
    strictTransportSecurity: false,
  });
  const hsts = `max-age=${config.transport.hstsMaxAgeSeconds}; includeSubDomains`;
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.headers(headers).header('X-Request-Id', request.id);
    if (config.transport.hsts === 'always' || (config.transport.hsts === 'auto' && request.protocol === 'https')) reply.header('Strict-Transport-Security', hsts);
    done();
  });
  registerTransportHardening(fastify, config.transport, config.trustedProxies, headers);
  registerEarlyAuthentication(app, API_PREFIX);

  if (config.corsOrigins.length > 0) {
    app.enableCors({
      origin: config.corsOrigins.includes('*') ? true : config.corsOrigins,
      methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
      allowedHeaders: ['Authorization', 'Content-Type', 'X-API-KEY', 'X-API-EMAIL', 'If-Match', 'Accept-Language', 'Idempotency-Key'],
      exposedHeaders: ['ETag', 'Retry-After', 'X-Request-Id', 'Idempotent-Replayed'],
      maxAge: 600,
    });
  }

  setUpApiDocs(app);
  await registerDashboard(app);
}

function setUpApiDocs(app: NestFastifyApplication): void {
  const generated = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Cartograph')
      .setDescription(
        `Indoor positioning and cartography API (wire-compatible with positioning API ${API_VERSION}). ` +
          'Authenticate with a Bearer JWT from POST /api/v1/auth/access_tokens, or with an API key in X-API-KEY (and optionally X-API-EMAIL). ' +
          'PATCH is accepted wherever PUT is (both are partial updates). Every error has the shape of ErrorResponseDto.',
      )
      .setVersion(API_VERSION)
      .addBasicAuth({ type: 'http', scheme: 'basic', description: 'E-mail and password (token endpoint only)' }, SECURITY.basic)
      .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, SECURITY.bearer)
      .addApiKey({ type: 'apiKey', in: 'header', name: 'X-API-KEY' }, SECURITY.apiKey)
      .addApiKey({ type: 'apiKey', in: 'header', name: 'X-API-EMAIL', description: "Optional: the key owner's e-mail" }, SECURITY.apiEmail)
      .build(),
    { extraModels: [ErrorResponseDto] },
  );
  documentIdempotencyKey(generated);
  const document = completeOpenApiDocument(generated, app.get(VersionService).current().version);
  SwaggerModule.setup('api/docs', app, document, {
    jsonDocumentUrl: 'api/docs-json',
    // Tags start folded: with every operation listed open, Swagger UI 5 stopped rendering after
    // the third tag once the API passed about 130 operations (no error shown).
    swaggerOptions: { persistAuthorization: true, docExpansion: 'none' },
  });
}

/**
 * The one way the server stops (SIGTERM, SIGINT, SIGHUP), in the order that lets every step
 * still use what it needs and leaves nothing for another instance to wait out:
 * 1. stop accepting connections (idle keep-alive ones are closed; the load balancer moves on);
 * 2. end the live streams (`event: close`, `shutdown`) and give their places back;
 * 3. let the requests in flight finish;
 * 4. stop the background work: the webhook worker finishes the attempts under way, records
 *    them and gives back the deliveries it had leased; the deadline sweeper ends its sweep;
 * 5. Nest's own shutdown hooks, the last of which closes the database.
 */
export async function closeApp(app: NestFastifyApplication): Promise<void> {
  const server = app.getHttpServer() as Server;
  draining.add(server);
  // Node's close() also closes the idle keep-alive connections; the callback comes once every connection has ended.
  const drained = new Promise<void>((resolve) => server.close(() => resolve()));
  await app.get(StreamsService).endAll();
  // Connections that became idle since (streams that ended) go now rather than at their keep-alive timeout.
  server.closeIdleConnections();
  await drained;
  await app.get(WebhookDeliveryWorker).pause();
  await app.get(GeofenceDeadlineSweeper).pause();
  await app.close();
}
