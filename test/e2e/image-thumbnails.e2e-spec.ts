import sharp from 'sharp';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cartographer, createBuilding, createFloor, errorFields, expectError, expectStatus, signUp } from '../support/cartography';
import { binaryParser, imagesDirectory, SAFE_SVG, sha256 } from '../support/images';
import { createTestApp, TestApp, TwoInstances, twoInstances } from '../support/test-app';

/** A plan-like raster: a gradient (so it does not compress to nothing), `width` x `height`. */
async function plan(width: number, height: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < width * height; i++) {
    pixels[i * 3] = (i % width) % 256;
    pixels[i * 3 + 1] = Math.floor(i / width) % 256;
    pixels[i * 3 + 2] = (i * 7) % 256;
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

const mediaType = (response: { headers: Record<string, unknown> }) =>
  String(response.headers['content-type'] ?? '')
    .split(';')[0]
    .trim();

describe('image thumbnails: GET /api/v1/images/{id}?width=', () => {
  let t: TestApp;
  let a: Cartographer;
  let b: Cartographer;
  let big: Buffer;
  let bigId: string;

  beforeAll(async () => {
    // Local storage, so a test can remove an original from disk; one instance, so it is safe on PostgreSQL too.
    t = await createTestApp({ env: { IMAGE_STORAGE: 'local', IMAGE_STORAGE_LOCAL_SHARED: 'true' } });
    a = await signUp(t, 'Thumbnails A');
    b = await signUp(t, 'Thumbnails B');
    big = await plan(1600, 900);
    bigId = (await upload(a.auth, big)).id;
  });
  afterAll(async () => t?.close());

  async function upload(auth: Record<string, string>, bytes: Buffer, filename = 'plan.png'): Promise<{ id: string; url: string }> {
    const response = await t.http.post('/api/v1/images').set(auth).attach('image', bytes, filename);
    expectStatus(response, 201);
    return response.body as { id: string; url: string };
  }
  const download = (auth: Record<string, string>, url: string, headers: Record<string, string> = {}) => t.http.get(url).set(auth).set(headers).buffer(true).parse(binaryParser);

  it('serves a WebP at most that wide, the aspect ratio kept, far smaller, with an ETag of the content and width', async () => {
    const response = await download(a.auth, `/api/v1/images/${bigId}?width=320`);
    expectStatus(response, 200);
    expect(mediaType(response)).toBe('image/webp');
    const meta = await sharp(response.body as Buffer).metadata();
    expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({ format: 'webp', width: 320, height: 180 });
    expect((response.body as Buffer).length).toBeLessThan(big.length / 10);
    expect(response.headers.etag).toBe(`"${sha256(big)}-w320"`);
    expect(response.headers['cache-control']).toBe('private, max-age=31536000, immutable');

    // Each allowed width is its own thumbnail; without a width the image itself, unchanged.
    const wider = await download(a.auth, `/api/v1/images/${bigId}?width=640`);
    expect((await sharp(wider.body as Buffer).metadata()).width).toBe(640);
    expect(wider.headers.etag).toBe(`"${sha256(big)}-w640"`);
    const original = await download(a.auth, `/api/v1/images/${bigId}`);
    expect(mediaType(original)).toBe('image/png');
    expect((original.body as Buffer).equals(big)).toBe(true);
    expect(original.headers.etag).toBe(`"${sha256(big)}"`);
  });

  it('answers 304 to its ETag, and never enlarges a smaller image', async () => {
    const first = await download(a.auth, `/api/v1/images/${bigId}?width=160`);
    expectStatus(first, 200);
    const again = await download(a.auth, `/api/v1/images/${bigId}?width=160`, { 'If-None-Match': String(first.headers.etag) });
    expectStatus(again, 304);
    expect((again.body as Buffer).length).toBe(0);
    // The original's tag is not the thumbnail's.
    expectStatus(await download(a.auth, `/api/v1/images/${bigId}?width=160`, { 'If-None-Match': `"${sha256(big)}"` }), 200);

    const small = await upload(a.auth, await plan(200, 100));
    const response = await download(a.auth, `/api/v1/images/${small.id}?width=1280`);
    expectStatus(response, 200);
    const meta = await sharp(response.body as Buffer).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 200, 100]);
  });

  it('draws an SVG plan at the width asked for', async () => {
    const svg = await upload(a.auth, Buffer.from(SAFE_SVG), 'plan.svg');
    const response = await download(a.auth, `/api/v1/images/${svg.id}?width=320`);
    expectStatus(response, 200);
    expect(mediaType(response)).toBe('image/webp');
    expect((await sharp(response.body as Buffer).metadata()).width).toBe(320);
  });

  it('makes a thumbnail once and keeps it: served again after the original is gone from storage', async () => {
    const image = await upload(a.auth, await plan(800, 600));
    const first = await download(a.auth, `/api/v1/images/${image.id}?width=320`);
    expectStatus(first, 200);
    rmSync(join(imagesDirectory(t), image.id));
    expectError(await t.http.get(`/api/v1/images/${image.id}`).set(a.auth), 404, 'entity_not_found');
    const cached = await download(a.auth, `/api/v1/images/${image.id}?width=320`);
    expectStatus(cached, 200);
    expect((cached.body as Buffer).equals(first.body as Buffer)).toBe(true);
  });

  it('refuses a width outside the allowed set (400 naming width), and another organization gets 404', async () => {
    for (const width of ['300', '0', '-160', '99999', 'abc', '320.5', '']) {
      const response = await t.http.get(`/api/v1/images/${bigId}?width=${width}`).set(a.auth);
      expectError(response, 400, 'bad_request');
      expect(errorFields(response)).toEqual(['width']);
    }
    expectError(await t.http.get(`/api/v1/images/${bigId}?width=320`).set(b.auth), 404, 'entity_not_found');
  });

  it("follows the floor's plan: a new plan gives a new map_url and so a new thumbnail", async () => {
    const building = await createBuilding(t, a.auth, { name: 'Thumbnailed' });
    const first = await upload(a.auth, await plan(1000, 500));
    const floor = await createFloor(t, a.auth, building.id, { map_id: first.id });
    const before = await download(a.auth, `${floor.maps.map_url}?width=320`);
    expect((await sharp(before.body as Buffer).metadata()).height).toBe(160);

    const second = await upload(a.auth, await plan(1000, 1000));
    expectStatus(await t.http.put(`/api/v1/floors/${floor.id}`).set(a.auth).send({ map_id: second.id }), 200);
    const changed = (await t.http.get(`/api/v1/floors/${floor.id}`).set(a.auth)).body as { maps: { map_url: string } };
    expect(changed.maps.map_url).toBe(`/api/v1/images/${second.id}`);
    const after = await download(a.auth, `${changed.maps.map_url}?width=320`, { 'If-None-Match': String(before.headers.etag) });
    expectStatus(after, 200);
    expect((await sharp(after.body as Buffer).metadata()).height).toBe(320);
  });
});

describe('image thumbnails on two instances of one database', () => {
  let pair: TwoInstances;
  beforeAll(async () => {
    pair = await twoInstances({ IMAGE_STORAGE: 'database' });
  });
  afterAll(async () => pair?.close());

  it("answers 304 on one instance to the ETag of the other's thumbnail, and makes the same bytes", async () => {
    const a = await signUp(pair.a, 'Thumbnails pair');
    const bytes = await plan(1200, 800);
    const image = (await pair.a.http.post('/api/v1/images').set(a.auth).attach('image', bytes, 'plan.png')).body as { id: string };
    const url = `/api/v1/images/${image.id}?width=640`;
    const fromA = await pair.a.http.get(url).set(a.auth).buffer(true).parse(binaryParser);
    expectStatus(fromA, 200);
    // A thumbnail, not the plan: WebP, 640 wide, with its own ETag.
    expect(mediaType(fromA)).toBe('image/webp');
    expect((await sharp(fromA.body as Buffer).metadata()).width).toBe(640);
    const original = await pair.a.http.get(`/api/v1/images/${image.id}`).set(a.auth).buffer(true).parse(binaryParser);
    expect(fromA.headers.etag).not.toBe(original.headers.etag);
    const revalidated = await pair.b.http.get(url).set(a.auth).set('If-None-Match', String(fromA.headers.etag));
    expectStatus(revalidated, 304);
    const fromB = await pair.b.http.get(url).set(a.auth).buffer(true).parse(binaryParser);
    expect(fromB.headers.etag).toBe(fromA.headers.etag);
    expect((fromB.body as Buffer).equals(fromA.body as Buffer)).toBe(true);
  });
});
