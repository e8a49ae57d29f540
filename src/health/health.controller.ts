import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckResult, HealthCheckService, HealthIndicatorResult, HealthIndicatorService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { Public } from '../access/decorators/public.decorator';
import { ErrorResponseDto } from '../common/errors/error-response.dto';
import { processIntegrityProblems } from './process-integrity';
import { StartupGate } from './startup-gate';

const READINESS_TIMEOUT_MS = 1500;

const STATUS_OK = { type: 'object', properties: { status: { type: 'string', example: 'ok' } } };

/** Probes for load balancers and orchestrators; public, outside /api/v1. */
@ApiTags('Health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    private readonly startup: StartupGate,
  ) {}

  @Get('live')
  @Public()
  @ApiOperation({ summary: 'The process is up' })
  @ApiOkResponse({ schema: STATUS_OK })
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  @Public()
  // Terminus would document its own 503 body; ours is the contract's error shape.
  @HealthCheck({ noCache: true, swaggerDocumentation: false })
  @ApiOperation({ summary: 'The server has finished starting, can reach its database, and its process is sound (no polluted built-in prototype)' })
  @ApiOkResponse({ schema: { ...STATUS_OK, properties: { ...STATUS_OK.properties, info: { type: 'object' }, details: { type: 'object' } } } })
  @ApiServiceUnavailableResponse({ type: ErrorResponseDto })
  ready(): Promise<HealthCheckResult> {
    return this.health.check([() => this.startupCheck(), () => this.processCheck(), () => this.database.pingCheck('database', { timeout: READINESS_TIMEOUT_MS })]);
  }

  private startupCheck(): HealthIndicatorResult<'startup'> {
    const session = this.indicators.check('startup');
    const pending = this.startup.pendingStep;
    return pending === null ? session.up() : session.down({ pending });
  }

  private processCheck(): HealthIndicatorResult<'process'> {
    const session = this.indicators.check('process');
    const problems = processIntegrityProblems();
    return problems.length === 0 ? session.up() : session.down({ problems });
  }
}
