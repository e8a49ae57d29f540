import { describe, expect, it } from 'vitest';
import { MqttFrameGuard } from './mqtt-frame-guard';

/** A fixed header: the type byte and the remaining length as MQTT encodes it. */
function header(type: number, length: number): number[] {
  const bytes = [type];
  do {
    let byte = length % 128;
    length = Math.floor(length / 128);
    if (length > 0) byte |= 0x80;
    bytes.push(byte);
  } while (length > 0);
  return bytes;
}

describe('MqttFrameGuard', () => {
  it('follows packets across chunks of any size and lets those within the bound through', () => {
    const stream = Uint8Array.from([...header(0x30, 200), ...new Array<number>(200).fill(1), ...header(0xc0, 0), ...header(0x32, 300), ...new Array<number>(300).fill(2)]);
    for (const size of [1, 2, 7, 128, stream.length]) {
      const guard = new MqttFrameGuard(300);
      for (let i = 0; i < stream.length; i += size) expect(guard.feed(stream.subarray(i, i + size))).toBe(true);
    }
  });

  it('refuses a packet that announces more than the bound, before its body, and a malformed length', () => {
    const guard = new MqttFrameGuard(300);
    expect(guard.feed(Uint8Array.from([...header(0x30, 10), ...new Array<number>(10).fill(0)]))).toBe(true);
    expect(guard.feed(Uint8Array.from(header(0x30, 301)))).toBe(false);
    expect(new MqttFrameGuard(1 << 30).feed(Uint8Array.from([0x30, 0xff, 0xff, 0xff, 0xff, 0x01]))).toBe(false);
    expect(new MqttFrameGuard(1 << 30).feed(Uint8Array.from(header(0x30, 268_435_455)))).toBe(true);
  });
});
