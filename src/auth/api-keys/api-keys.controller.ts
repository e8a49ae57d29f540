import { Body, Controller, Delete, Get, Header, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ErrorResponseDto } from '../../common/errors/error-response.dto';
import { UuidParam } from '../../common/http/params';
import { Access } from '../../access/decorators/access.decorator';
import { CurrentPrincipal } from '../../access/decorators/current-principal.decorator';
import { AccessScope } from '../../access/permissions';
import { Principal } from '../../access/principal';
import { ApiKeyResponseDto, CreateApiKeyDto, ListApiKeysQuery, UpdateApiKeyDto } from './api-keys.dto';
import { ApiKeysService } from './api-keys.service';

/** Answers that may carry a full key must not be kept by any cache on the way. */
const NO_STORE = ['Cache-Control', 'no-store'] as const;

/** Managing keys needs the user's own credentials (a JWT from a password), never a key. */
@ApiTags('API keys')
@Controller('auth/apikeys')
export class ApiKeysController {
  constructor(private readonly apiKeys: ApiKeysService) {}

  @Get()
  @Header(...NO_STORE)
  @Access(AccessScope.Read, { userCredentials: true })
  @ApiOperation({ summary: 'List your API keys (masked, except positioning keys, which their owner and administrators read in full)' })
  @ApiOkResponse({ type: [ApiKeyResponseDto] })
  list(@CurrentPrincipal() principal: Principal, @Query() query: ListApiKeysQuery): Promise<ApiKeyResponseDto[]> {
    return this.apiKeys.list(principal, query);
  }

  @Post()
  @HttpCode(201)
  @Header(...NO_STORE)
  @Access(AccessScope.Write, { userCredentials: true })
  @ApiOperation({ summary: 'Generate an API key; the response is the only time its secret is shown' })
  @ApiCreatedResponse({ type: ApiKeyResponseDto })
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateApiKeyDto): Promise<ApiKeyResponseDto> {
    return this.apiKeys.create(principal, dto);
  }

  @Put(':id')
  @Header(...NO_STORE)
  @Access(AccessScope.Write, { userCredentials: true })
  @ApiOperation({ summary: 'Change the permission or description of an API key' })
  @ApiOkResponse({ type: ApiKeyResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  update(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string, @Body() dto: UpdateApiKeyDto): Promise<ApiKeyResponseDto> {
    return this.apiKeys.update(principal, id, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  @Access(AccessScope.Write, { userCredentials: true })
  @ApiOperation({ summary: 'Delete an API key; it and the tokens made from it stop working at once' })
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ type: ErrorResponseDto })
  remove(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string): Promise<void> {
    return this.apiKeys.remove(principal, id);
  }
}
