import SitumSDK from '@situm/sdk-js';
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Response } from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiPermission } from '../../src/access/permissions';
import { asApiKey, createApiKey } from '../support/auth';
import { Cartographer, CARTOGRAPHY_KEY_LEVELS, errorFields, expectError, expectStatus, keysOf, MALFORMED_UUIDS, signUp, UUID } from '../support/cartography';
import {
  binaryParser,
  BOUNDARY,
  blobOf,
  filePartHead,
  HOSTILE_SVG,
  imageFiles,
  imageRow,
  imageRowCounts,
  imagesDirectory,
  JPEG_1X1,
  multipartContentType,
  multipartTail,
  PNG_2X2,
  pngOfSize,
  SAFE_SVG,
  sha256,
  streamPngUpload,
  WEBP_LOSSLESS_1X1,
  WEBP_LOSSY_1X1,
} from '../support/images';
import { listenOnLoopback } from '../support/sdk-client';
import { createTestApp, TestApp } from '../support/test-app';

const MAX_BYTES = 20 * 1024 * 1024;

type Storage = 'local' | 'database';

interface Upload {
  id: string;
  url: string;
}

const RASTERS: Array<[string, Buffer, string, string]> = [
  ['PNG', PNG_2X2, 'plan.png', 'image/png'],
  ['JPEG', JPEG_1X1, 'photo.jpg', 'image/jpeg'],
  ['WebP (lossless)', WEBP_LOSSLESS_1X1, 'icon.webp', 'image/webp'],
  ['WebP (lossy)', WEBP_LOSSY_1X1, 'icon2.webp', 'image/webp'],
];

const mediaType = (response: { headers: Record<string, unknown> }): string =>
  String(response.headers['content-type'] ?? '')
    .split(';')[0]
    .trim();

/** Each element as `name attr="value" ...` with sorted attributes: compares drawings whatever the tag syntax. */
function elementsOf(svg: string): string[] {
  const elements: string[] = [];
  for (const match of svg.matchAll(/<([A-Za-z][\w:.-]*)((?:\s+[\w:.-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*\/?>/g)) {
    const attributes = [...match[2].matchAll(/([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)].map((attribute) => `${attribute[1]}="${attribute[2] ?? attribute[3]}"`);
    elements.push([match[1], ...attributes.sort()].join(' '));
  }
  return elements;
}

/** Asserts the 201 answer of an upload and returns it. */
function expectUploaded(response: Response): Upload {
  expectStatus(response, 201);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  expect(keysOf(response.body)).toEqual(['id', 'url']);
  expect(response.body.id).toMatch(UUID);
  expect(response.body.url).toBe(`/api/v1/images/${response.body.id}`);
  return response.body as Upload;
}

describe.each<Storage>(['local', 'database'])('images (IMAGE_STORAGE=%s)', (storage) => {
  let t: TestApp;
  let baseUrl: string;
  let a: Cartographer;
  let b: Cartographer;

  beforeAll(async () => {
    t = await createTestApp({ env: { IMAGE_STORAGE: storage, IMAGE_STORAGE_LOCAL_SHARED: 'true' } });
    // Before any t.http request: the streaming uploads need a real port.
    baseUrl = await listenOnLoopback(t);
    a = await signUp(t, `Images A (${storage})`);
    b = await signUp(t, `Images B (${storage})`);
  });
  afterAll(async () => t?.close());

  const upload = (auth: Record<string, string>, bytes: Buffer, filename = 'plan.png', contentType = 'image/png') =>
    t.http.post('/api/v1/images').set(auth).attach('image', bytes, { filename, contentType });

  const download = (auth: Record<string, string>, url: string, headers: Record<string, string> = {}) => t.http.get(url).set(auth).set(headers).buffer(true).parse(binaryParser);

  /** What the chosen storage holds for an image: the bytes, in the right place only. */
  async function expectStored(id: string, bytes: Buffer, contentType: string): Promise<void> {
    const row = await imageRow(t, id);
    expect(row).toMatchObject({ id, organization_id: a.org.organizationId, content_type: contentType, storage });
    expect(Number(row!.byte_size)).toBe(bytes.length);
    expect(row!.sha256).toBe(sha256(bytes));
    if (storage === 'local') {
      expect(readFileSync(join(imagesDirectory(t), id)).equals(bytes)).toBe(true);
      expect(await blobOf(t, id)).toBeNull();
    } else {
      expect((await blobOf(t, id))?.equals(bytes)).toBe(true);
      expect(imageFiles(t)).toEqual([]);
    }
  }

  /** Nothing was written: no row in images or image_blobs, no file (not even a draft). */
  async function expectNothingWritten(before: { images: number; blobs: number }, filesBefore: string[]): Promise<void> {
    expect(await imageRowCounts(t)).toEqual(before);
    expect(imageFiles(t)).toEqual(filesBefore);
  }

  describe('POST /api/v1/images and GET its url', () => {
    it.each(RASTERS)('stores a %s and serves the same bytes with its content type, ETag and caching headers', async (_format, bytes, filename, contentType) => {
      const image = expectUploaded(await upload(a.auth, bytes, filename, contentType));

      const response = await download(a.auth, image.url);
      expectStatus(response, 200);
      expect(mediaType(response)).toBe(contentType);
      expect(Buffer.isBuffer(response.body)).toBe(true);
      expect((response.body as Buffer).equals(bytes)).toBe(true);
      expect(Number(response.headers['content-length'])).toBe(bytes.length);
      expect(response.headers.etag).toMatch(/^"[^"]+"$/);
      const cacheControl = String(response.headers['cache-control']);
      expect(cacheControl).toMatch(/\bprivate\b/);
      expect(Number(/max-age=(\d+)/.exec(cacheControl)?.[1])).toBeGreaterThan(0);
      expect(cacheControl).not.toMatch(/no-store|public/);
      expect(response.headers['x-content-type-options']).toBe('nosniff');

      // The same ETag every time; a trailing slash reaches the same image.
      const again = await download(a.auth, `${image.url}/`);
      expectStatus(again, 200);
      expect(again.headers.etag).toBe(response.headers.etag);
      expect((again.body as Buffer).equals(bytes)).toBe(true);

      await expectStored(image.id, bytes, contentType);
    });

    it('stores an SVG drawing unchanged in substance and serves it as image/svg+xml', async () => {
      const image = expectUploaded(await upload(a.auth, Buffer.from(SAFE_SVG), 'icon.svg', 'image/svg+xml'));
      const response = await download(a.auth, image.url);
      expectStatus(response, 200);
      expect(mediaType(response)).toBe('image/svg+xml');
      expect(response.headers.etag).toMatch(/^"[^"]+"$/);
      expect(response.headers['cache-control']).toMatch(/max-age=\d+/);
      const served = (response.body as Buffer).toString('utf8');
      expect(served.trimStart()).toMatch(/^<svg[\s>]/);
      expect(elementsOf(served)).toEqual(elementsOf(SAFE_SVG));
      expect(served).toContain('>Exit</text>');
      await expectStored(image.id, response.body as Buffer, 'image/svg+xml');
    });

    it('gives every upload its own id, even for the same bytes, and different images different ETags', async () => {
      const first = expectUploaded(await upload(a.auth, PNG_2X2));
      const second = expectUploaded(await upload(a.auth, PNG_2X2));
      const other = expectUploaded(await upload(a.auth, JPEG_1X1, 'photo.jpg', 'image/jpeg'));
      expect(new Set([first.id, second.id, other.id]).size).toBe(3);
      const [one, two, three] = await Promise.all([first, second, other].map((image) => download(a.auth, image.url)));
      expect(one.headers.etag).toBe(two.headers.etag);
      expect(three.headers.etag).not.toBe(one.headers.etag);
    });
  });

  describe('conditional GET', () => {
    it('answers 304 without a body to If-None-Match with the current ETag, and 200 to another tag', async () => {
      const image = expectUploaded(await upload(a.auth, PNG_2X2));
      const first = await download(a.auth, image.url);
      expectStatus(first, 200);
      const etag = String(first.headers.etag);

      const notModified = await download(a.auth, image.url, { 'If-None-Match': etag });
      expectStatus(notModified, 304);
      expect((notModified.body as Buffer).length).toBe(0);
      expect(notModified.headers.etag).toBe(etag);
      expect(notModified.headers['cache-control']).toBe(first.headers['cache-control']);

      const modified = await download(a.auth, image.url, { 'If-None-Match': '"something-else"' });
      expectStatus(modified, 200);
      expect((modified.body as Buffer).equals(PNG_2X2)).toBe(true);
    });

    it('matches If-None-Match as RFC 9110 says: a list of tags, weak comparison and *', async () => {
      const image = expectUploaded(await upload(a.auth, PNG_2X2));
      const etag = String((await download(a.auth, image.url)).headers.etag);
      const headers = [`"stale", ${etag}`, `${etag}, "stale"`, `W/${etag}`, '*'];
      const statuses: Record<string, number> = {};
      for (const header of headers) statuses[header] = (await download(a.auth, image.url, { 'If-None-Match': header })).status;
      expect(statuses).toEqual(Object.fromEntries(headers.map((header) => [header, 304])));
      // A list that does not name the current tag is still a 200.
      expectStatus(await download(a.auth, image.url, { 'If-None-Match': '"stale", W/"older"' }), 200);
    });

    it("never answers 304 for another organization's image: 404 whatever the ETag", async () => {
      const image = expectUploaded(await upload(a.auth, PNG_2X2));
      const etag = String((await download(a.auth, image.url)).headers.etag);
      expectError(await t.http.get(image.url).set(b.auth).set('If-None-Match', etag), 404, 'entity_not_found');
    });
  });

  describe('content detection', () => {
    it.each<[string, Buffer, string, string, string]>([
      ['a PNG named x.jpg and sent as image/jpeg', PNG_2X2, 'x.jpg', 'image/jpeg', 'image/png'],
      ['a JPEG named plan.png and sent as image/png', JPEG_1X1, 'plan.png', 'image/png', 'image/jpeg'],
      ['a WebP named data.bin and sent as application/octet-stream', WEBP_LOSSLESS_1X1, 'data.bin', 'application/octet-stream', 'image/webp'],
      ['an SVG named icon.png and sent as image/png', Buffer.from(SAFE_SVG), 'icon.png', 'image/png', 'image/svg+xml'],
    ])('types %s by its content', async (_label, bytes, filename, declared, detected) => {
      const image = expectUploaded(await upload(a.auth, bytes, filename, declared));
      const response = await download(a.auth, image.url);
      expectStatus(response, 200);
      expect(mediaType(response)).toBe(detected);
      expect((await imageRow(t, image.id))?.content_type).toBe(detected);
    });

    it.each<[string, Buffer, string, string]>([
      ['a text file named a.png', Buffer.from('just some text, not a picture\n'), 'a.png', 'image/png'],
      ['an empty file', Buffer.alloc(0), 'empty.png', 'image/png'],
      ['an HTML page named page.svg', Buffer.from('<!doctype html><html><body><script>alert(1)</script><svg></svg></body></html>'), 'page.svg', 'image/svg+xml'],
      ['an XML document whose root is not <svg>', Buffer.from('<?xml version="1.0"?><note><svg/></note>'), 'note.svg', 'image/svg+xml'],
      ['a GIF', Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64'), 'a.gif', 'image/gif'],
      ['a PDF named plan.png', Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n', 'latin1'), 'plan.png', 'image/png'],
      ['half a PNG signature', PNG_2X2.subarray(0, 4), 'cut.png', 'image/png'],
      ['a RIFF file that is not WebP (WAV)', Buffer.concat([Buffer.from('RIFF'), Buffer.from([36, 0, 0, 0]), Buffer.from('WAVEfmt ')]), 'sound.webp', 'image/webp'],
    ])('refuses %s with 422 naming the field `image`, and stores nothing', async (_label, bytes, filename, declared) => {
      const before = await imageRowCounts(t);
      const filesBefore = imageFiles(t);
      const response = await upload(a.auth, bytes, filename, declared);
      expectError(response, 422, 'validation_failed');
      expect(errorFields(response)).toEqual(['image']);
      await expectNothingWritten(before, filesBefore);
    });
  });

  describe('SVG sanitizing', () => {
    it('removes scripts, event handlers, foreignObject, javascript: and external references, and keeps the drawing', async () => {
      const image = expectUploaded(await upload(a.auth, Buffer.from(HOSTILE_SVG), 'icon.svg', 'image/svg+xml'));
      const response = await download(a.auth, image.url);
      expectStatus(response, 200);
      expect(mediaType(response)).toBe('image/svg+xml');
      const served = (response.body as Buffer).toString('utf8');

      // Gone.
      expect(served).not.toMatch(/<script/i);
      expect(served).not.toContain('ALERT_');
      expect(served).not.toMatch(/\son[a-z]+\s*=/i);
      expect(served).not.toMatch(/foreignObject/i);
      expect(served).not.toMatch(/<iframe|<body|<img/i);
      expect(served).not.toMatch(/javascript:/i);
      expect(served).not.toContain('evil.example');
      expect(served).not.toContain('data:image/svg+xml');
      expect(served).not.toMatch(/<animate|<set/i);
      expect(served).not.toMatch(/\sstyle\s*=/i);

      // Kept: the drawing and its same-document references.
      expect(served.trimStart()).toMatch(/^(<\?xml[^>]*\?>\s*)?<svg[\s>]/);
      const elements = elementsOf(served);
      for (const element of [
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 24 24" width="24" height="24">',
        '<linearGradient id="grad">',
        '<stop offset="0" stop-color="#f00"/>',
        '<rect id="box" x="2" y="2" width="20" height="20" fill="url(#grad)"/>',
        '<circle cx="12" cy="12" r="4" fill="#fff"/>',
        '<path d="M4 20 L20 4" stroke="#333"/>',
        '<use href="#box"/>',
      ]) {
        expect(elements).toContain(elementsOf(element)[0]);
      }
      expect(served).toContain('>Exit</text>');
      await expectStored(image.id, response.body as Buffer, 'image/svg+xml');
    });

    it('drops presentation attributes that point outside the document (url(...) of another resource)', async () => {
      const svg = [
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">',
        '<defs><clipPath id="c"><rect width="5" height="5"/></clipPath></defs>',
        '<rect width="10" height="10" fill="url(https://evil.example/paint.svg#p)" stroke="url(//evil.example/s.svg#s)"/>',
        '<circle r="3" cx="5" cy="5" mask="url(https://evil.example/mask.svg#m)" clip-path="url(#c)" fill="red"/>',
        '</svg>',
      ].join('');
      const image = expectUploaded(await upload(a.auth, Buffer.from(svg), 'refs.svg', 'image/svg+xml'));
      const served = ((await download(a.auth, image.url)).body as Buffer).toString('utf8');
      expect(served).not.toContain('evil.example');
      expect(served).toContain('clip-path="url(#c)"');
      expect(served).toContain('fill="red"');
    });
  });

  describe('limits and malformed requests (contract section 3)', () => {
    it('accepts a file of exactly 20 MiB and serves it back byte for byte', async () => {
      const response = await streamPngUpload(baseUrl, a.auth, MAX_BYTES);
      expect(response.status, response.text).toBe(201);
      const image = response.body as Upload;
      expect(image.url).toBe(`/api/v1/images/${image.id}`);
      const hash = createHash('sha256');
      for (const piece of pngOfSize(MAX_BYTES)) hash.update(piece);
      const digest = hash.digest('hex');
      const served = await download(a.auth, image.url);
      expectStatus(served, 200);
      expect(mediaType(served)).toBe('image/png');
      expect((served.body as Buffer).length).toBe(MAX_BYTES);
      expect(sha256(served.body as Buffer)).toBe(digest);
    });

    it('answers 413 payload_too_large to 20 MiB + 1 byte, writes nothing, and keeps serving', async () => {
      const before = await imageRowCounts(t);
      const filesBefore = imageFiles(t);
      const response = await streamPngUpload(baseUrl, a.auth, MAX_BYTES + 1);
      expect(response.status, response.text).toBe(413);
      expect(String(response.headers['content-type'])).toMatch(/^application\/json/);
      expect(response.body).toEqual({ status: 413, code: 'payload_too_large', message: expect.any(String), errors: expect.any(Array) });
      await expectNothingWritten(before, filesBefore);
      expectUploaded(await upload(a.auth, PNG_2X2));
    });

    it.each<[string, string, Buffer]>([
      [
        'a body cut before its closing boundary',
        multipartContentType(),
        Buffer.concat([filePartHead({ field: 'image', filename: 'plan.png', contentType: 'image/png' }), PNG_2X2]),
      ],
      [
        'a multipart content type without a boundary',
        'multipart/form-data',
        Buffer.concat([filePartHead({ field: 'image', filename: 'plan.png', contentType: 'image/png' }), PNG_2X2, multipartTail()]),
      ],
      ['a body that never mentions its boundary', multipartContentType(), Buffer.from('this is not multipart at all\r\n')],
    ])('answers 400 bad_request to broken multipart (%s) and writes nothing', async (_label, contentType, body) => {
      const before = await imageRowCounts(t);
      const filesBefore = imageFiles(t);
      const response = await t.http.post('/api/v1/images').set(a.auth).set('Content-Type', contentType).send(body);
      expectError(response, 400, 'bad_request');
      await expectNothingWritten(before, filesBefore);
    });

    it('answers 415 to a body that is not multipart (JSON, raw bytes, none) and writes nothing', async () => {
      const before = await imageRowCounts(t);
      const filesBefore = imageFiles(t);
      const json = await t.http
        .post('/api/v1/images')
        .set(a.auth)
        .send({ image: PNG_2X2.toString('base64') });
      expectError(json, 415, 'unsupported_media_type');
      const raw = await t.http.post('/api/v1/images').set(a.auth).set('Content-Type', 'image/png').send(PNG_2X2);
      expectError(raw, 415, 'unsupported_media_type');
      const octets = await t.http.post('/api/v1/images').set(a.auth).set('Content-Type', 'application/octet-stream').send(PNG_2X2);
      expectError(octets, 415, 'unsupported_media_type');
      const none = await t.http.post('/api/v1/images').set(a.auth);
      expectError(none, 415, 'unsupported_media_type');
      await expectNothingWritten(before, filesBefore);
    });

    it('answers 422 naming `image` when the multipart body has no file field of that name, and writes nothing', async () => {
      const before = await imageRowCounts(t);
      const filesBefore = imageFiles(t);
      const otherName = await t.http.post('/api/v1/images').set(a.auth).attach('file', PNG_2X2, 'plan.png');
      const textField = await t.http.post('/api/v1/images').set(a.auth).field('image', 'plan.png').field('name', 'plan');
      const empty = await t.http
        .post('/api/v1/images')
        .set(a.auth)
        .set('Content-Type', multipartContentType())
        .send(Buffer.from(`--${BOUNDARY}--\r\n`));
      for (const response of [otherName, textField, empty]) {
        expectError(response, 422, 'validation_failed');
        expect(errorFields(response)).toEqual(['image']);
      }
      await expectNothingWritten(before, filesBefore);
    });

    it('takes the `image` file whatever text fields come with it (the official client may send rtf=true)', async () => {
      const response = await t.http.post('/api/v1/images').set(a.auth).field('rtf', 'true').attach('image', PNG_2X2, 'plan.png');
      const image = expectUploaded(response);
      expect(((await download(a.auth, image.url)).body as Buffer).equals(PNG_2X2)).toBe(true);
    });
  });

  describe('organization isolation', () => {
    it('hides an image from other organizations (404), not from its own; malformed ids are 400 and unknown ones 404', async () => {
      const image = expectUploaded(await upload(a.auth, PNG_2X2));
      expectError(await t.http.get(image.url).set(b.auth), 404, 'entity_not_found');
      expectStatus(await download(a.auth, image.url), 200);
      expectError(await t.http.get(`/api/v1/images/${randomUUID()}`).set(a.auth), 404, 'entity_not_found');
      for (const malformed of [...MALFORMED_UUIDS, '..%2F..%2Fetc%2Fpasswd', `${image.id.slice(0, -1)}g`]) {
        expectError(await t.http.get(`/api/v1/images/${malformed}`).set(a.auth), 400, 'bad_request');
      }
    });

    it("stores an upload under the uploader's organization whatever the body says", async () => {
      const response = await t.http
        .post('/api/v1/images')
        .set(b.auth)
        .field('organization_id', a.org.organizationId)
        .field('id', randomUUID())
        .attach('image', PNG_2X2, 'plan.png');
      const image = expectUploaded(response);
      expect((await imageRow(t, image.id))?.organization_id).toBe(b.org.organizationId);
      expectStatus(await download(b.auth, image.url), 200);
      expectError(await t.http.get(image.url).set(a.auth), 404, 'entity_not_found');
    });
  });

  describe('permissions (contract 2.3)', () => {
    it.each(CARTOGRAPHY_KEY_LEVELS)('a %s key reads images; uploads only when it covers cartography (%s)', async (permission, canWrite) => {
      const key = await createApiKey(t, a.token, permission);
      const auth = asApiKey(key.apikey);
      const existing = expectUploaded(await upload(a.auth, JPEG_1X1, 'photo.jpg', 'image/jpeg'));
      const read = await download(auth, existing.url);
      expectStatus(read, 200);
      expect((read.body as Buffer).equals(JPEG_1X1)).toBe(true);

      const before = await imageRowCounts(t);
      const filesBefore = imageFiles(t);
      const post = await upload(auth, PNG_2X2);
      if (canWrite) {
        const image = expectUploaded(post);
        expect(((await download(a.auth, image.url)).body as Buffer).equals(PNG_2X2)).toBe(true);
      } else {
        expectError(post, 403, 'forbidden');
        // Refused before the body is looked at: a non-image is 403 too, not 422.
        expectError(await upload(auth, Buffer.from('not an image')), 403, 'forbidden');
        await expectNothingWritten(before, filesBefore);
      }
    });

    it('needs credentials for both routes, and a disabled key is refused', async () => {
      const image = expectUploaded(await upload(a.auth, PNG_2X2));
      const before = await imageRowCounts(t);
      expectError(await t.http.get(image.url), 401, 'unauthorized');
      expectError(await t.http.post('/api/v1/images').attach('image', PNG_2X2, 'plan.png'), 401, 'unauthorized');
      const disabled = await createApiKey(t, a.token, ApiPermission.Disabled);
      expectError(await t.http.get(image.url).set(asApiKey(disabled.apikey)), 401, 'unauthorized');
      expectError(await upload(asApiKey(disabled.apikey), PNG_2X2), 401, 'unauthorized');
      expect(await imageRowCounts(t)).toEqual(before);
    });
  });

  describe('storage', () => {
    if (storage === 'database') {
      it('keeps the bytes in image_blobs and writes no file under DATA_DIR/images', async () => {
        const png = expectUploaded(await upload(a.auth, PNG_2X2));
        const svg = expectUploaded(await upload(a.auth, Buffer.from(SAFE_SVG), 'icon.svg', 'image/svg+xml'));
        expect((await blobOf(t, png.id))?.equals(PNG_2X2)).toBe(true);
        const served = (await download(a.auth, svg.url)).body as Buffer;
        expect((await blobOf(t, svg.id))?.equals(served)).toBe(true);
        expect(imageFiles(t)).toEqual([]);
        const counts = await imageRowCounts(t);
        expect(counts.blobs).toBe(counts.images);
      });
    } else {
      it('keeps one file per image under DATA_DIR/images (no drafts left) and nothing in image_blobs', async () => {
        const png = expectUploaded(await upload(a.auth, PNG_2X2));
        const files = imageFiles(t);
        expect(files).toContain(png.id);
        expect(files.filter((name) => !UUID.test(name))).toEqual([]);
        expect(readFileSync(join(imagesDirectory(t), png.id)).equals(PNG_2X2)).toBe(true);
        expect(await imageRowCounts(t)).toMatchObject({ blobs: 0 });
        expect(files.length).toBe((await imageRowCounts(t)).images);
      });
    }
  });
});

describe('images through the official client (@situm/sdk-js)', () => {
  let t: TestApp;
  let sdk: SitumSDK;
  let a: Cartographer;
  let domain: string;

  beforeAll(async () => {
    t = await createTestApp();
    domain = await listenOnLoopback(t);
    a = await signUp(t, 'Images SDK');
    sdk = new SitumSDK({ domain, auth: { username: a.org.email, password: a.org.password } });
  });
  afterAll(async () => t?.close());

  it('uploadImage returns { id, url } and the url serves the uploaded bytes', async () => {
    const result = await sdk.images.uploadImage(new Blob([PNG_2X2], { type: 'image/png' }), { filename: 'plan.png' });
    expect(result).toEqual({ id: expect.stringMatching(UUID), url: `/api/v1/images/${result.id}` });
    const served = await t.http.get(result.url).set(a.auth).buffer(true).parse(binaryParser);
    expectStatus(served, 200);
    expect(mediaType(served)).toBe('image/png');
    expect((served.body as Buffer).equals(PNG_2X2)).toBe(true);
  });

  it('uploads an SVG and a JPEG too, typed by content', async () => {
    const svg = await sdk.images.uploadImage(new Blob([SAFE_SVG], { type: 'image/svg+xml' }), { filename: 'icon.svg' });
    const jpeg = await sdk.images.uploadImage(new Blob([JPEG_1X1]), { filename: 'photo.bin' });
    for (const [image, type] of [
      [svg, 'image/svg+xml'],
      [jpeg, 'image/jpeg'],
    ] as const) {
      expect(image.url).toBe(`/api/v1/images/${image.id}`);
      const served = await t.http.get(image.url).set(a.auth).buffer(true).parse(binaryParser);
      expectStatus(served, 200);
      expect(mediaType(served)).toBe(type);
    }
  });

  it('a key that may not write gets a rejection with status 403, and nothing is stored', async () => {
    const key = await createApiKey(t, a.token, ApiPermission.ReadOnly);
    const readOnly = new SitumSDK({ domain, auth: { apiKey: key.apikey } });
    const before = await imageRowCounts(t);
    await expect(readOnly.images.uploadImage(new Blob([PNG_2X2], { type: 'image/png' }), { filename: 'plan.png' })).rejects.toMatchObject({ status: 403 });
    expect(await imageRowCounts(t)).toEqual(before);
  });
});
