import { Duplex } from 'node:stream';
import type { Socket } from 'node:net';

/**
 * Follows the MQTT packets of a byte stream by their fixed headers (a type byte, then the remaining length in 1-4
 * bytes of 7 bits) and says when one announces more than `maxRemaining` bytes, before its body is buffered: the
 * MQTT parser would otherwise hold a packet of up to 256 MiB in memory before anything of ours could refuse it.
 */
export class MqttFrameGuard {
  private state: 'type' | 'length' | 'body' = 'type';
  private length = 0;
  private multiplier = 1;
  private lengthBytes = 0;
  private remaining = 0;

  constructor(private readonly maxRemaining: number) {}

  /** Takes the next bytes: false once a packet is too large or its length is malformed. */
  feed(chunk: Uint8Array): boolean {
    let i = 0;
    while (i < chunk.length) {
      if (this.state === 'body') {
        const take = Math.min(this.remaining, chunk.length - i);
        this.remaining -= take;
        i += take;
        if (this.remaining === 0) this.state = 'type';
        continue;
      }
      if (this.state === 'type') {
        i += 1;
        this.state = 'length';
        this.length = 0;
        this.multiplier = 1;
        this.lengthBytes = 0;
        continue;
      }
      const byte = chunk[i++];
      this.length += (byte & 0x7f) * this.multiplier;
      this.multiplier *= 128;
      this.lengthBytes += 1;
      if (this.length > this.maxRemaining) return false;
      if (byte & 0x80) {
        if (this.lengthBytes >= 4) return false;
        continue;
      }
      this.remaining = this.length;
      this.state = this.remaining === 0 ? 'type' : 'body';
    }
    return true;
  }
}

/** The socket as a stream for the broker, closed as soon as a packet announces more than `maxRemaining` bytes. */
export function guardedConnection(socket: Socket, maxRemaining: number, onOversized: () => void): Duplex {
  const guard = new MqttFrameGuard(maxRemaining);
  const stream = new Duplex({
    read() {
      socket.resume();
    },
    write(chunk: Buffer, _encoding, callback) {
      socket.write(chunk, callback);
    },
    final(callback) {
      socket.end();
      callback();
    },
    destroy(error, callback) {
      socket.destroy();
      callback(error);
    },
  });
  socket.on('data', (chunk: Buffer) => {
    if (!guard.feed(chunk)) {
      onOversized();
      socket.destroy();
      return;
    }
    if (!stream.push(chunk)) socket.pause();
  });
  socket.on('end', () => stream.push(null));
  socket.on('error', (error) => stream.destroy(error));
  socket.on('close', () => stream.destroy());
  return stream;
}
