import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOperation, ApiTags, ApiUnauthorizedResponse, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { ErrorResponseDto } from '../common/errors/error-response.dto';
import { AuthService } from './auth.service';
import { RefreshTokensDto, TokenPairDto } from './auth.dto';
import { Access } from '../access/decorators/access.decorator';
import { CurrentPrincipal } from '../access/decorators/current-principal.decorator';
import { Public } from '../access/decorators/public.decorator';
import { AccessScope } from '../access/permissions';
import { Principal } from '../access/principal';

@ApiTags('Authentication')
@Controller('auth')
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @Post('access_tokens')
  @HttpCode(201)
  @Access(AccessScope.Authenticated, { tokenExchange: true })
  @ApiOperation({ summary: 'Get a JWT with Basic e-mail:password or with an API key (X-API-KEY, optionally X-API-EMAIL)' })
  @ApiCreatedResponse({ type: TokenPairDto })
  issueTokens(@CurrentPrincipal() principal: Principal): Promise<TokenPairDto> {
    return this.auth.issueTokens(principal);
  }

  @Post('refresh_access_tokens')
  @HttpCode(201)
  @Public()
  @ApiOperation({ summary: 'Exchange a refresh token (single use) for a new pair; reusing one revokes its session' })
  @ApiBody({ type: RefreshTokensDto })
  @ApiCreatedResponse({ type: TokenPairDto })
  @ApiUnauthorizedResponse({ type: ErrorResponseDto })
  @ApiUnprocessableEntityResponse({ type: ErrorResponseDto })
  refresh(@Body() dto: RefreshTokensDto): Promise<TokenPairDto> {
    return this.auth.refresh(dto);
  }
}
