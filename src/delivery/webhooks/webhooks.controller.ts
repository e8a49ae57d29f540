import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { Access } from '../../access/decorators/access.decorator';
import { CurrentPrincipal } from '../../access/decorators/current-principal.decorator';
import { AccessScope } from '../../access/permissions';
import { Principal } from '../../access/principal';
import { Role } from '../../access/roles';
import { ErrorResponseDto } from '../../common/errors/error-response.dto';
import { UuidParam } from '../../common/http/params';
import { Page, PageQuery } from '../../common/pagination/pagination';
import { WebhookDeliveriesService } from './webhook-deliveries.service';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { WebhookReplayService } from './webhook-replay.service';
import {
  CreateWebhookDto,
  DeliveryResponseDto,
  ListDeliveriesQuery,
  ReplayResponseDto,
  ReplayWebhookDto,
  UpdateWebhookDto,
  WebhookResponseDto,
  WebhookWithSecretDto,
} from './webhooks.dto';

/**
 * Contract 7.5. Webhooks receive every event of the organization: reading them needs read-write,
 * and managing them (anything that writes or sends) is administration, `ADMIN_ORG` (issue 27).
 */
@ApiTags('Webhooks')
@Controller('webhooks')
export class WebhooksController {
  constructor(
    private readonly endpoints: WebhookEndpointsService,
    private readonly deliveries: WebhookDeliveriesService,
    private readonly replays: WebhookReplayService,
  ) {}

  @Get()
  @Access(AccessScope.Write)
  @ApiOperation({ summary: "The organization's webhooks (secrets never shown)" })
  @ApiOkResponse({ type: [WebhookResponseDto] })
  list(@CurrentPrincipal() principal: Principal, @Query() query: PageQuery): Promise<Page<WebhookResponseDto>> {
    return this.endpoints.list(principal, query);
  }

  @Post()
  @HttpCode(201)
  @Access(AccessScope.Write, { role: Role.AdminOrg })
  @ApiOperation({ summary: 'Register a webhook; the answer holds its signing secret, shown this once' })
  @ApiCreatedResponse({ type: WebhookWithSecretDto })
  @ApiUnprocessableEntityResponse({ type: ErrorResponseDto, description: 'Invalid or refused URL, unknown event type or filter id' })
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateWebhookDto): Promise<WebhookWithSecretDto> {
    return this.endpoints.create(principal, dto);
  }

  @Get(':id')
  @Access(AccessScope.Write)
  @ApiOperation({ summary: 'A webhook' })
  @ApiOkResponse({ type: WebhookResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  get(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string): Promise<WebhookResponseDto> {
    return this.endpoints.get(principal, id);
  }

  @Put(':id')
  @Access(AccessScope.Write, { role: Role.AdminOrg })
  @ApiOperation({ summary: 'Update a webhook (partial); enabling it again clears a disabled_reason' })
  @ApiOkResponse({ type: WebhookResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiUnprocessableEntityResponse({ type: ErrorResponseDto })
  update(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string, @Body() dto: UpdateWebhookDto): Promise<WebhookResponseDto> {
    return this.endpoints.update(principal, id, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  @Access(AccessScope.Write, { role: Role.AdminOrg })
  @ApiOperation({ summary: 'Delete a webhook' })
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  remove(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string): Promise<void> {
    return this.endpoints.remove(principal, id);
  }

  @Post(':id/rotate_secret')
  @HttpCode(200)
  @Access(AccessScope.Write, { role: Role.AdminOrg })
  @ApiOperation({ summary: 'A new signing secret, shown once; the previous one keeps signing for 24 h beside it' })
  @ApiOkResponse({ type: WebhookWithSecretDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  rotateSecret(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string): Promise<WebhookWithSecretDto> {
    return this.endpoints.rotateSecret(principal, id);
  }

  @Post(':id/test')
  @HttpCode(202)
  @Access(AccessScope.Write, { role: Role.AdminOrg })
  @ApiOperation({ summary: 'Send a `webhook.test` event to this endpoint now (signed and retried like any event)' })
  @ApiAcceptedResponse({ type: DeliveryResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async test(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string): Promise<DeliveryResponseDto> {
    return this.deliveries.sendTest(principal, await this.endpoints.findForCaller(principal, id));
  }

  @Get(':id/deliveries')
  @Access(AccessScope.Write)
  @ApiOperation({ summary: "The endpoint's deliveries, newest first, each with its attempts (status=dead lists the dead letters)" })
  @ApiOkResponse({ type: [DeliveryResponseDto] })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  async listDeliveries(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string, @Query() query: ListDeliveriesQuery): Promise<Page<DeliveryResponseDto>> {
    await this.endpoints.findForCaller(principal, id);
    return this.deliveries.list(principal, id, query);
  }

  @Post(':id/deliveries/:deliveryId/retry')
  @HttpCode(202)
  @Access(AccessScope.Write, { role: Role.AdminOrg })
  @ApiOperation({ summary: 'Attempt a delivery again now (a dead one gets one more attempt)' })
  @ApiAcceptedResponse({ type: DeliveryResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'It is being attempted right now' })
  retry(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string, @UuidParam('deliveryId') deliveryId: string): Promise<DeliveryResponseDto> {
    return this.deliveries.retry(principal, id, deliveryId);
  }

  @Post(':id/replay')
  @HttpCode(202)
  @Access(AccessScope.Write, { role: Role.AdminOrg })
  @ApiOperation({
    summary:
      'Send events of the log to this webhook again, with their own webhook-id: {"from","to"} (occurred_at, at most 31 days and 10,000 events; only the types and filters the webhook subscribes to) or {"event_ids":[…]} (at most 1,000, delivered whatever it subscribes to)',
  })
  @ApiAcceptedResponse({ type: ReplayResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  @ApiUnprocessableEntityResponse({ type: ErrorResponseDto, description: 'Neither or both forms, a bad or too wide range, or event ids not in the log (each named)' })
  replay(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string, @Body() dto: ReplayWebhookDto): Promise<ReplayResponseDto> {
    return this.replays.replay(principal, id, dto);
  }
}
