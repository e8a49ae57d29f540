import { describe, expect, it } from 'vitest';
import { scanSvg, SVG_LIMITS } from './svg-limits';

const nestedGroups = (depth: number) => `<svg xmlns="http://www.w3.org/2000/svg">${'<g>'.repeat(depth)}<rect/>${'</g>'.repeat(depth)}</svg>`;

describe('scanSvg', () => {
  it('counts elements and the deepest nesting of a drawing', () => {
    const svg = '<?xml version="1.0"?><!DOCTYPE svg><!-- <g><g> --><svg><g id="a"><rect x="1"/><path d="M0 0"></path></g><![CDATA[<g><g>]]></svg>';
    expect(scanSvg(svg)).toEqual({ ok: true, elements: 4, depth: 3 });
  });

  it('does not end a tag at a > inside a quoted attribute value', () => {
    expect(scanSvg(`<svg><g title="a > b" data='<g>'><rect/></g></svg>`)).toEqual({ ok: true, elements: 3, depth: 2 });
  });

  it('accepts nesting at the limit and refuses one level more', () => {
    expect(scanSvg(nestedGroups(SVG_LIMITS.maxDepth - 1))).toMatchObject({ ok: true, depth: SVG_LIMITS.maxDepth });
    expect(scanSvg(nestedGroups(SVG_LIMITS.maxDepth))).toEqual({ ok: false, reason: 'depth', limit: SVG_LIMITS.maxDepth });
  });

  it('refuses more elements than the limit, even flat ones', () => {
    expect(scanSvg(`<svg>${'<rect/>'.repeat(10)}</svg>`, { maxElements: 10, maxDepth: 5 })).toEqual({ ok: false, reason: 'elements', limit: 10 });
    expect(scanSvg(`<svg>${'<rect/>'.repeat(9)}</svg>`, { maxElements: 10, maxDepth: 5 })).toMatchObject({ ok: true, elements: 10 });
  });

  it('counts unclosed tags as nesting (never undercounts what the parser will nest)', () => {
    expect(scanSvg(`<svg>${'<g>'.repeat(300)}`)).toEqual({ ok: false, reason: 'depth', limit: SVG_LIMITS.maxDepth });
  });

  it('survives malformed markup: unterminated comments, tags and stray <', () => {
    for (const svg of ['<svg><!-- never ends', '<svg><g attr="never ends', '< < <svg/> <', '<svg></', '<']) {
      expect(scanSvg(svg).ok, svg).toBe(true);
    }
  });

  it('scans 4 MiB of nested groups quickly (linear)', () => {
    const svg = '<g>'.repeat(600_000);
    const started = performance.now();
    expect(scanSvg(svg, { maxElements: Number.MAX_SAFE_INTEGER, maxDepth: Number.MAX_SAFE_INTEGER })).toMatchObject({ ok: true, elements: 600_000 });
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
