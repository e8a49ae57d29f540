import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiBody,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { Access } from '../access/decorators/access.decorator';
import { CurrentPrincipal } from '../access/decorators/current-principal.decorator';
import { AccessScope } from '../access/permissions';
import { Principal } from '../access/principal';
import { ErrorResponseDto } from '../common/errors/error-response.dto';
import { RawJsonBody } from '../common/http/raw-json-body';
import { GatewayIngestResponseDto } from './gateways.dto';
import { GatewayIngestService } from './gateway-ingest.service';

@ApiTags('Gateways')
@Controller('gateways')
export class GatewayIngestController {
  constructor(private readonly ingest: GatewayIngestService) {}

  @Post(':hardware_id/observations')
  @HttpCode(200)
  @RawJsonBody()
  @Access(AccessScope.PositionsWrite, { gatewayKey: true })
  @ApiOperation({
    summary: "A gateway's message, in its registered format (Ruuvi's batch, Minew's array, Cartograph JSON)",
    description:
      'The key (positioning or read-write) decides the organization; the gateway must be registered there by this hardware id. The key may come as X-API-KEY or, as gateway firmware sends it, in Authorization: Bearer, Token, the bare key, or Basic with the key as the password. The answer comes once the observations of the organization’s tags are stored. The same messages may come over MQTT (docs/api.md, MQTT for gateways).',
  })
  @ApiBody({ schema: { type: 'object', description: 'The gateway format’s own JSON (at most 256 KiB)' } })
  @ApiOkResponse({ type: GatewayIngestResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'No gateway of the organization has this hardware id' })
  @ApiPayloadTooLargeResponse({ type: ErrorResponseDto, description: 'Over 256 KiB (counted on the gateway’s health)' })
  @ApiUnprocessableEntityResponse({ type: ErrorResponseDto, description: 'Not understood (counted on the gateway’s health with the reason)' })
  @ApiTooManyRequestsResponse({ type: ErrorResponseDto, description: 'Over the gateway’s rate (200/s, bursts of 1,000; noted on its health as message_rate), with Retry-After' })
  take(@CurrentPrincipal() principal: Principal, @Param('hardware_id') hardwareId: string, @Body() body: unknown): Promise<GatewayIngestResponseDto> {
    return this.ingest.ingest(principal, hardwareId, body);
  }
}
