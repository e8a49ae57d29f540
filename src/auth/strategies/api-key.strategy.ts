import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { HeaderAPIKeyStrategy } from 'passport-headerapikey';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { Principal } from '../../access/principal';

@Injectable()
export class ApiKeyStrategy extends PassportStrategy(HeaderAPIKeyStrategy, 'api-key') {
  constructor(private readonly apiKeys: ApiKeysService) {
    // passReqToCallback must stay false: with it the Nest mixin takes `req` for the callback.
    // X-API-EMAIL is checked by the authentication guard instead.
    super({ header: 'X-API-KEY', prefix: '' }, false);
  }

  validate(apiKey: string): Promise<Principal | false> {
    return this.apiKeys.authenticate(apiKey);
  }
}
