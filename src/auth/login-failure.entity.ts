import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Failed logins per client address and per e-mail in the current window. Kept in the
 * database so that every instance behind a load balancer sees the same counts.
 */
@Entity('login_failures')
export class LoginFailure {
  /** `ip:<address>` or `email:<lower-cased e-mail>`. */
  @PrimaryColumn({ type: 'varchar', length: 400 })
  key: string;

  @Column({ type: Date })
  windowStartedAt: Date;

  @Column({ type: 'integer' })
  failures: number;
}
