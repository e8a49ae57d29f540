import { SseStream } from './sse-stream';

/** Frames a stream may have waiting for its client before it is dropped as too slow. */
export const MAX_QUEUED_FRAMES = 20_000;

/** An SSE frame: its `id` (null: none), its event name and its data. */
export interface Frame {
  id: string | null;
  event: string;
  data: string;
}

/**
 * The frames of one live stream waiting for its client, sent at the client's pace (each once the
 * socket can take it). A client that lets too many pile up is dropped with `too_slow`.
 */
export class FrameQueue {
  private readonly frames: Frame[] = [];
  private next = 0;
  private pumping = false;

  constructor(private readonly sse: SseStream) {}

  push(frame: Frame): void {
    this.frames.push(frame);
  }

  /** Starts sending what was pushed (or drops the stream when too much waits). */
  flush(): void {
    if (this.frames.length - this.next > MAX_QUEUED_FRAMES) {
      this.sse.end('too_slow');
      return;
    }
    if (!this.pumping && this.next < this.frames.length) void this.pump();
  }

  private async pump(): Promise<void> {
    this.pumping = true;
    try {
      while (this.next < this.frames.length) {
        if (!(await this.sse.writable())) return;
        const frame = this.frames[this.next++];
        this.sse.send(frame.id, frame.event, frame.data);
      }
    } finally {
      this.frames.splice(0, this.next);
      this.next = 0;
      this.pumping = false;
    }
  }
}
