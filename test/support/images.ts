import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import type { Response as AgentResponse } from 'superagent';
import type { TestApp } from './test-app';

/**
 * Small valid images built in code, and helpers to upload them the way clients do
 * (multipart field `image`), including a streaming upload for the 20 MiB limit.
 */

// ---------------------------------------------------------------------------------------
// PNG
// ---------------------------------------------------------------------------------------

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n += 1) {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 as PNG uses it; pass the previous result to continue over more bytes. */
export function crc32(bytes: Uint8Array, previous = 0): number {
  let c = (previous ^ 0xffffffff) >>> 0;
  for (let index = 0; index < bytes.length; index += 1) c = CRC_TABLE[(c ^ bytes[index]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

function ihdr(width: number, height: number): Buffer {
  const data = Buffer.alloc(13);
  data.writeUInt32BE(width, 0);
  data.writeUInt32BE(height, 4);
  data[8] = 8; // bit depth
  data[9] = 6; // RGBA
  return pngChunk('IHDR', data);
}

function idat(width: number, height: number, pixel: (x: number, y: number) => [number, number, number, number]): Buffer {
  const rows: number[] = [];
  for (let y = 0; y < height; y += 1) {
    rows.push(0); // filter: none
    for (let x = 0; x < width; x += 1) rows.push(...pixel(x, y));
  }
  return pngChunk('IDAT', deflateSync(Buffer.from(rows)));
}

/** A valid RGBA PNG of the given size (a small coloured pattern). */
export function makePng(width = 2, height = 2): Buffer {
  const palette: Array<[number, number, number, number]> = [
    [255, 0, 0, 255],
    [0, 255, 0, 255],
    [0, 0, 255, 255],
    [255, 255, 255, 128],
  ];
  return Buffer.concat([PNG_SIGNATURE, ihdr(width, height), idat(width, height, (x, y) => palette[(x + 2 * y) % palette.length]), pngChunk('IEND', Buffer.alloc(0))]);
}

/** A 2x2 PNG (red, green / blue, half-transparent white). */
export const PNG_2X2 = makePng(2, 2);

// ---------------------------------------------------------------------------------------
// JPEG: a 1x1 grey baseline JPEG (DC and AC Huffman tables of one 1-bit code each).
// ---------------------------------------------------------------------------------------

export const JPEG_1X1 = Buffer.from([
  0xff,
  0xd8, // SOI
  0xff,
  0xe0,
  0x00,
  0x10,
  0x4a,
  0x46,
  0x49,
  0x46,
  0x00,
  0x01,
  0x01,
  0x00,
  0x00,
  0x01,
  0x00,
  0x01,
  0x00,
  0x00, // APP0 JFIF
  0xff,
  0xdb,
  0x00,
  0x43,
  0x00,
  ...new Array<number>(64).fill(1), // DQT, table 0, all ones
  0xff,
  0xc0,
  0x00,
  0x0b,
  0x08,
  0x00,
  0x01,
  0x00,
  0x01,
  0x01,
  0x01,
  0x11,
  0x00, // SOF0 1x1, one component
  0xff,
  0xc4,
  0x00,
  0x14,
  0x00,
  0x01,
  ...new Array<number>(15).fill(0),
  0x00, // DHT DC 0: one code (category 0)
  0xff,
  0xc4,
  0x00,
  0x14,
  0x10,
  0x01,
  ...new Array<number>(15).fill(0),
  0x00, // DHT AC 0: one code (EOB)
  0xff,
  0xda,
  0x00,
  0x08,
  0x01,
  0x01,
  0x00,
  0x00,
  0x3f,
  0x00, // SOS
  0x3f, // DC "0", EOB "0", padded with ones
  0xff,
  0xd9, // EOI
]);

// ---------------------------------------------------------------------------------------
// WebP: a 1x1 lossless and a 1x1 lossy image.
// ---------------------------------------------------------------------------------------

export const WEBP_LOSSLESS_1X1 = Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64');
export const WEBP_LOSSY_1X1 = Buffer.from('UklGRiIAAABXRUJQVlA4IBYAAAAwAQCdASoBAAEADsD+JaQAA3AAAAAA', 'base64');

// ---------------------------------------------------------------------------------------
// SVG
// ---------------------------------------------------------------------------------------

/** A harmless drawing: it must come back with every element and attribute it has. */
export const SAFE_SVG = [
  '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 24 24" width="24" height="24">',
  '<defs><linearGradient id="grad"><stop offset="0" stop-color="#f00"/><stop offset="1" stop-color="#00f"/></linearGradient></defs>',
  '<rect id="box" x="2" y="2" width="20" height="20" rx="3" fill="url(#grad)" stroke="#000" stroke-width="1"/>',
  '<circle cx="12" cy="12" r="4" fill="#fff"/>',
  '<path d="M4 20 L20 4" stroke="#333"/>',
  '<use href="#box" x="1"/>',
  '<text x="3" y="22" font-size="3">Exit</text>',
  '</svg>',
].join('');

/**
 * A drawing wrapped in everything the sanitizer must remove. The markers (`ALERT_n`,
 * `evil.example`) let a test find any leftover.
 */
export const HOSTILE_SVG = `<?xml version="1.0" encoding="UTF-8"?>
<!-- an icon -->
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 24 24" width="24" height="24" onload="ALERT_1()">
  <script type="text/javascript"><![CDATA[ ALERT_2() ]]></script>
  <script xlink:href="https://evil.example/payload.js"></script>
  <defs><linearGradient id="grad"><stop offset="0" stop-color="#f00"/></linearGradient></defs>
  <rect id="box" x="2" y="2" width="20" height="20" fill="url(#grad)" onclick="ALERT_3()" onMouseOver="ALERT_4()"/>
  <circle cx="12" cy="12" r="4" fill="#fff" style="fill: url(https://evil.example/style.svg#p)"/>
  <path d="M4 20 L20 4" stroke="#333"/>
  <foreignObject x="0" y="0" width="24" height="24"><body xmlns="http://www.w3.org/1999/xhtml"><iframe src="https://evil.example/frame"></iframe><img src="x" onerror="ALERT_5()"/></body></foreignObject>
  <a href="javascript:ALERT_6()"><text x="1" y="9">one</text></a>
  <a xlink:href="javascript:ALERT_7()"><text x="1" y="12">two</text></a>
  <use href="#box"/>
  <use href=" JaVaScRiPt:ALERT_8()"/>
  <use xlink:href="https://evil.example/sprite.svg#icon"/>
  <image href="https://evil.example/track.png" width="1" height="1"/>
  <image xlink:href="//evil.example/track2.png" width="1" height="1"/>
  <image href="data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=" width="1" height="1"/>
  <animate attributeName="href" to="javascript:ALERT_9()"/>
  <set attributeName="onload" to="ALERT_10()"/>
  <g onLoad="ALERT_11()"><text x="3" y="22">Exit</text></g>
</svg>`;

// ---------------------------------------------------------------------------------------
// Multipart
// ---------------------------------------------------------------------------------------

export const BOUNDARY = '----cartograph-test-boundary-7d3f';

export interface FilePart {
  field: string;
  filename: string;
  contentType: string;
}

/** The bytes before a file's content in a one-file multipart body. */
export function filePartHead(part: FilePart, boundary = BOUNDARY): Buffer {
  return Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.field}"; filename="${part.filename}"\r\nContent-Type: ${part.contentType}\r\n\r\n`, 'utf8');
}

export const multipartTail = (boundary = BOUNDARY): Buffer => Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8');

export const multipartContentType = (boundary = BOUNDARY): string => `multipart/form-data; boundary=${boundary}`;

/** A PNG of exactly `size` bytes, produced in pieces (a large private ancillary chunk pads it). */
export function* pngOfSize(size: number, piece = 256 * 1024): Generator<Buffer> {
  const head = Buffer.concat([PNG_SIGNATURE, ihdr(1, 1)]);
  const tail = Buffer.concat([idat(1, 1, () => [0, 0, 0, 255]), pngChunk('IEND', Buffer.alloc(0))]);
  const padding = size - head.length - tail.length - 12;
  if (padding < 0) throw new Error(`a PNG cannot be as small as ${size} bytes`);
  yield head;
  const length = Buffer.alloc(4);
  length.writeUInt32BE(padding);
  const type = Buffer.from('prVt', 'ascii'); // private, ancillary, safe to copy
  yield Buffer.concat([length, type]);
  let crc = crc32(type);
  const filler = Buffer.alloc(piece, 0x5a);
  for (let left = padding; left > 0; left -= piece) {
    const bytes = left >= piece ? filler : filler.subarray(0, left);
    crc = crc32(bytes, crc);
    yield bytes;
  }
  const crcBytes = Buffer.alloc(4);
  crcBytes.writeUInt32BE(crc);
  yield crcBytes;
  yield tail;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
  text: string;
}

/**
 * Streams a request body to a listening server piece by piece (never holding it whole),
 * honouring back-pressure, and stops sending once the server has answered (a server may
 * answer 413 before the body ends).
 */
export function streamRequest(baseUrl: string, method: string, path: string, headers: Record<string, string>, pieces: Iterable<Buffer>): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const request = httpRequest(new URL(path, baseUrl), { method, headers }, (response) => {
      answered = true;
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON: keep the text
        }
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body, text });
      });
    });
    request.on('error', (error) => {
      // A server that answered early may close the connection under the rest of the body.
      if (!answered) reject(error);
    });
    const iterator = pieces[Symbol.iterator]();
    const pump = (): void => {
      while (!answered && !request.destroyed) {
        const next = iterator.next();
        if (next.done) {
          request.end();
          return;
        }
        if (!request.write(next.value)) {
          request.once('drain', pump);
          return;
        }
      }
    };
    pump();
  });
}

/** Uploads a file of `size` bytes (a PNG) without ever holding it in memory. */
export function streamPngUpload(baseUrl: string, auth: Record<string, string>, size: number): Promise<RawResponse> {
  const head = filePartHead({ field: 'image', filename: 'huge.png', contentType: 'image/png' });
  const tail = multipartTail();
  function* body(): Generator<Buffer> {
    yield head;
    yield* pngOfSize(size);
    yield tail;
  }
  return streamRequest(baseUrl, 'POST', '/api/v1/images', { ...auth, 'Content-Type': multipartContentType(), 'Content-Length': String(head.length + size + tail.length) }, body());
}

export const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** Supertest parser that keeps any response body as raw bytes. */
export function binaryParser(response: AgentResponse, callback: (error: Error | null, body: Buffer) => void): void {
  const stream = response as unknown as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.on('end', () => callback(null, Buffer.concat(chunks)));
  stream.on('error', (error: Error) => callback(error, Buffer.alloc(0)));
}

/** The files under DATA_DIR/images (none when the folder does not exist). */
export function imageFiles(t: TestApp): string[] {
  const directory = join(t.env.DATA_DIR, 'images');
  return existsSync(directory) ? readdirSync(directory).sort() : [];
}

export const imagesDirectory = (t: TestApp): string => join(t.env.DATA_DIR, 'images');

/** Rows of `images` and `image_blobs`. */
export async function imageRowCounts(t: TestApp): Promise<{ images: number; blobs: number }> {
  const [images] = await t.dataSource.query('SELECT COUNT(*) AS "n" FROM "images"');
  const [blobs] = await t.dataSource.query('SELECT COUNT(*) AS "n" FROM "image_blobs"');
  return { images: Number(images.n), blobs: Number(blobs.n) };
}

/** The stored bytes of an image in `image_blobs`, or null when it has no row there. */
export async function blobOf(t: TestApp, id: string): Promise<Buffer | null> {
  const [sql, parameters] = t.dataSource.driver.escapeQueryWithParameters('SELECT "bytes" FROM "image_blobs" WHERE "image_id" = :id', { id });
  const rows: Array<{ bytes: Buffer | Uint8Array }> = await t.dataSource.query(sql, parameters);
  return rows[0] ? Buffer.from(rows[0].bytes) : null;
}

/** The `images` row of an image (snake_case columns), or undefined. */
export async function imageRow(t: TestApp, id: string): Promise<Record<string, unknown> | undefined> {
  const [sql, parameters] = t.dataSource.driver.escapeQueryWithParameters('SELECT * FROM "images" WHERE "id" = :id', { id });
  const rows: Array<Record<string, unknown>> = await t.dataSource.query(sql, parameters);
  return rows[0];
}
