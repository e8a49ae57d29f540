import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';

export class TokenPairDto {
  @ApiProperty({ description: 'JWT (HS256) for `Authorization: Bearer`; valid 4 days by default' })
  access_token: string;

  @ApiProperty({ description: 'Single-use token for POST /api/v1/auth/refresh_access_tokens', example: 'cgr_…' })
  refresh_token: string;
}

export class RefreshTokensDto {
  @ApiProperty({ description: 'The access token issued with the refresh token (it may have expired)' })
  @IsString()
  @MaxLength(8192)
  access_token: string;

  @ApiProperty()
  @IsString()
  @MaxLength(256)
  refresh_token: string;
}

/** Claims of Cartograph's access tokens (contract 2.1); `sid` names the session (token chain). */
export interface AccessTokenClaims {
  sub: string;
  email: string;
  organization_uuid: string;
  role: string;
  api_permission: string;
  sid: string;
  iat?: number;
  exp?: number;
  jti?: string;
}
