import { DashboardSessionController } from './dashboard-session/dashboard-session.controller';
import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import { TypeOrmModule } from '@nestjs/typeorm';
import { authConfig, AuthConfig } from '../config/auth.config';
import { UsersModule } from '../users/users.module';
import { API_KEY_CIPHER, positioningKeyCipher } from './api-keys/api-key-cipher';
import { ApiKey } from './api-keys/api-key.entity';
import { ApiKeysController } from './api-keys/api-keys.controller';
import { ApiKeysService } from './api-keys/api-keys.service';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { AuthenticationGuard } from './guards/authentication.guard';
import { PermissionGuard } from '../access/permission.guard';
import { CredentialCacheModule } from './credential-cache.module';
import { buildJwtKey, JWT_KEY } from './jwt-key';
import { LoginFailure } from './login-failure.entity';
import { LoginFailuresRepository } from './login-failures.repository';
import { LoginThrottleService } from './login-throttle.service';
import { AuthSession } from './sessions/auth-session.entity';
import { RefreshToken } from './sessions/refresh-token.entity';
import { ApiKeyStrategy } from './strategies/api-key.strategy';
import { BasicStrategy } from './strategies/basic.strategy';
import { JwtStrategy } from './strategies/jwt.strategy';
import { StreamTicketsController } from './stream-tickets.controller';
import { CredentialOwnersRepository } from './credential-owners.repository';
import { StreamTicketsRepository } from './stream-tickets.repository';
import { StreamTicketsService } from './stream-tickets.service';
import { UserCredentialRevocation } from './user-credential-revocation';

@Module({
  imports: [
    CredentialCacheModule,
    UsersModule,
    PassportModule,
    TypeOrmModule.forFeature([ApiKey, AuthSession, RefreshToken, LoginFailure]),
    JwtModule.registerAsync({
      inject: [authConfig.KEY],
      useFactory: (config: AuthConfig) => ({
        secret: buildJwtKey(config.jwtSecret) as unknown as string,
        signOptions: { algorithm: 'HS256', expiresIn: config.accessTokenTtlSeconds },
        verifyOptions: { algorithms: ['HS256'] },
      }),
    }),
  ],
  controllers: [AuthController, ApiKeysController, DashboardSessionController, StreamTicketsController],
  providers: [
    { provide: JWT_KEY, inject: [authConfig.KEY], useFactory: (config: AuthConfig) => buildJwtKey(config.jwtSecret) },
    { provide: API_KEY_CIPHER, inject: [authConfig.KEY], useFactory: (config: AuthConfig) => positioningKeyCipher(config.sealingSecret) },
    AuthService,
    ApiKeysService,
    LoginThrottleService,
    LoginFailuresRepository,
    BasicStrategy,
    JwtStrategy,
    ApiKeyStrategy,
    StreamTicketsService,
    StreamTicketsRepository,
    CredentialOwnersRepository,
    UserCredentialRevocation,
    // Order matters: who the caller is, then what it may do.
    // One instance serves as the global guard and as the pre-body authentication (early-authentication.ts).
    AuthenticationGuard,
    { provide: APP_GUARD, useExisting: AuthenticationGuard },
    { provide: APP_GUARD, useClass: PermissionGuard },
  ],
  exports: [AuthService, AuthenticationGuard, ApiKeysService],
})
export class AuthModule {}
