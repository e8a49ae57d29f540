import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { BasicStrategy as PassportBasicStrategy } from 'passport-http';
import { ApiError } from '../../common/errors/api-error';
import { passwordLogins } from '../../common/metrics/operations.metrics';
import { UsersService } from '../../users/users.service';
import { buildingScopeOf } from '../../access/building-scope';
import { LoginThrottleService } from '../login-throttle.service';
import { PasswordHasher } from '../../users/passwords';
import { ApiPermission } from '../../access/permissions';
import { CredentialKind, Principal } from '../../access/principal';

/** E-mail and password, accepted only by the token endpoint. */
@Injectable()
export class BasicStrategy extends PassportStrategy(PassportBasicStrategy, 'basic') {
  constructor(
    private readonly users: UsersService,
    private readonly passwords: PasswordHasher,
    private readonly throttle: LoginThrottleService,
  ) {
    super({ passReqToCallback: true });
  }

  async validate(request: FastifyRequest, email: string, password: string): Promise<Principal> {
    // Counted (or refused) before any hashing: a flood of guesses costs no CPU, and a
    // parallel burst cannot all pass the check before any of them is counted.
    const attempt = await this.throttle.reserveAttempt(request.ip, email).catch((error: unknown) => {
      if (error instanceof ApiError && error.status === 429) passwordLogins.inc({ outcome: 'throttled' });
      throw error;
    });
    const user = await this.users.findByEmail(email);
    // Unknown e-mails are verified against a dummy hash: same answer, same time.
    const valid = await this.passwords.verify(user?.passwordHash, password);
    if (!user || !valid) {
      passwordLogins.inc({ outcome: 'failed' });
      throw ApiError.invalidCredentials();
    }
    await this.throttle.recordSuccess(attempt);
    passwordLogins.inc({ outcome: 'succeeded' });
    return {
      userId: user.id,
      organizationId: user.organizationId,
      email: user.email,
      role: user.role,
      permission: ApiPermission.ReadWrite,
      credential: CredentialKind.Password,
      apiKeyId: null,
      sessionId: null,
      buildingIds: buildingScopeOf(user.role, user.buildingScope),
    };
  }
}
