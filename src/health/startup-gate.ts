import { Injectable } from '@nestjs/common';

/**
 * Start-up work that must finish before the server reports ready. The server listens before
 * it creates the first administrator (so a start that cannot take its port leaves none
 * behind); until that step is done, `/health/ready` answers 503, and a script that waits
 * for readiness and then logs in never races it.
 */
@Injectable()
export class StartupGate {
  private pending: string | null = null;

  /** A step that readiness waits for, until `release`. */
  hold(step: string): void {
    this.pending = step;
  }

  release(): void {
    this.pending = null;
  }

  get pendingStep(): string | null {
    return this.pending;
  }
}
