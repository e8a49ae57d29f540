import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { AccessTokenClaims } from '../auth.dto';
import { AuthService } from '../auth.service';
import { JWT_KEY } from '../jwt-key';
import { Principal } from '../principal';
import { sessionCookieToken } from '../session/dashboard-session';
import type { KeyObject } from 'node:crypto';

@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(
    private readonly auth: AuthService,
    @Inject(JWT_KEY) key: KeyObject,
  ) {
    super({
      // The dashboard's HttpOnly cookie carries the same token; a header, when sent, wins.
      jwtFromRequest: ExtractJwt.fromExtractors([ExtractJwt.fromAuthHeaderAsBearerToken(), (request) => sessionCookieToken(request as never) ?? null]),
      // jsonwebtoken accepts a KeyObject; a string secret costs ~380 µs per verify (STACK-NOTES).
      secretOrKey: key as unknown as string,
      algorithms: ['HS256'],
      ignoreExpiration: false,
    });
  }

  validate(claims: AccessTokenClaims): Promise<Principal | false> {
    return this.auth.principalFromClaims(claims);
  }
}
