import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC_KEY = 'cartograph:public';

/** Opts a route out of authentication. Everything else needs credentials. */
export const Public = () => SetMetadata(IS_PUBLIC_KEY, true);
