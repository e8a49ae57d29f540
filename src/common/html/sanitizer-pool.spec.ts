import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../errors/api-error';
import { sanitizeRichText } from './sanitize';
import { sanitizeSvg } from './sanitize-svg';
import { INLINE_RICH_TEXT_CHARS, SanitizerPool } from './sanitizer-pool';

const HOSTILE =
  '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script><rect x="1" onclick="x()" fill="url(http://evil/x)"/><foreignObject><p>x</p></foreignObject></svg>';
const flat = (elements: number) => `<svg>${'<rect x="1" y="2" width="3" height="4"/>'.repeat(elements)}</svg>`;

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('SanitizerPool', () => {
  const pools: SanitizerPool[] = [];
  const pool = (options: ConstructorParameters<typeof SanitizerPool>[0] = {}) => {
    const created = new SanitizerPool(options);
    pools.push(created);
    return created;
  };
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((created) => created.onModuleDestroy()));
  });

  it('sanitizes in the worker exactly as on the calling thread', async () => {
    const sanitizer = pool();
    const sanitized = await sanitizer.sanitizeSvg(HOSTILE);
    expect(sanitized).toBe(sanitizeSvg(HOSTILE));
    expect(sanitized).not.toMatch(/script|onclick|foreignObject|evil/);
    expect(sanitized).toContain('<rect x="1"');
  });

  it('serves queued uploads in order, one at a time', async () => {
    const sanitizer = pool();
    const inputs = ['<svg><rect x="1"/></svg>', '<svg><rect x="2"/></svg>', '<svg><rect x="3"/></svg>'];
    expect(await Promise.all(inputs.map((svg) => sanitizer.sanitizeSvg(svg)))).toEqual(inputs.map((svg) => sanitizeSvg(svg)));
  });

  it('stops an SVG that takes longer than the deadline with 422, and keeps working afterwards', async () => {
    const sanitizer = pool({ deadlineMs: 50 });
    const error = await refusal(sanitizer.sanitizeSvg(flat(100_000)));
    expect(error.toBody()).toMatchObject({ status: 422, code: 'validation_failed', errors: [{ code: 'too_complex', fields: 'image' }] });
    expect(await sanitizer.sanitizeSvg('<svg><g/></svg>')).toBe(sanitizeSvg('<svg><g/></svg>'));
  });

  it('turns a worker running out of memory into 422 for that upload only', async () => {
    const sanitizer = pool({ maxOldGenerationSizeMb: 24, deadlineMs: 20_000 });
    const error = await refusal(sanitizer.sanitizeSvg(flat(300_000)));
    expect(error.toBody()).toMatchObject({ status: 422, errors: [{ code: 'too_complex', fields: 'image', message: expect.stringMatching(/memory/) }] });
    expect(await sanitizer.sanitizeSvg('<svg><g/></svg>')).toBe(sanitizeSvg('<svg><g/></svg>'));
  }, 30_000);

  it('keeps the event loop free while it works', async () => {
    const sanitizer = pool();
    let longestGap = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
    }, 5);
    const started = performance.now();
    await sanitizer.sanitizeSvg(flat(50_000));
    const took = performance.now() - started;
    clearInterval(ticker);
    expect(took).toBeGreaterThan(100);
    expect(longestGap).toBeLessThan(took / 2);
  });

  it('sanitizes HTML texts like the calling thread: short ones inline, long ones in the worker', async () => {
    const sanitizer = pool();
    const short = '<p onclick="x()">Hi <script>x()</script><b>there</b></p>';
    const long = `<p>${'<a href="javascript:x()">link</a> <i>text</i> '.repeat(100)}</p>`;
    expect(long.length).toBeGreaterThan(INLINE_RICH_TEXT_CHARS);
    const texts = [short, long, '', long.replace('link', 'other')];
    expect(await sanitizer.sanitizeRichTexts(texts)).toEqual(texts.map((text) => sanitizeRichText(text)));
    expect(await sanitizer.sanitizeRichText(long)).not.toContain('javascript');
  });

  it('names the field of a rich text that takes longer than the deadline', async () => {
    const sanitizer = pool({ deadlineMs: 20 });
    await sanitizer.sanitizeRichText('x'.repeat(INLINE_RICH_TEXT_CHARS + 1)).catch(() => undefined);
    const error = await refusal(sanitizer.sanitizeRichText('<p>x</p>'.repeat(60_000), 'description'));
    expect(error.toBody()).toMatchObject({ status: 422, errors: [{ code: 'too_complex', fields: 'description' }] });
  });

  it('answers 503 when too many SVGs are waiting', async () => {
    const sanitizer = pool({ maxQueued: 1 });
    const first = sanitizer.sanitizeSvg(flat(10_000));
    const second = sanitizer.sanitizeSvg(flat(10));
    const third = await refusal(sanitizer.sanitizeSvg(flat(10)));
    expect(third.status).toBe(503);
    await expect(Promise.all([first, second])).resolves.toHaveLength(2);
  });
});
