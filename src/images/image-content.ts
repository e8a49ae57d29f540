import sanitizeHtml from 'sanitize-html';

export type ImageContentType = 'image/png' | 'image/jpeg' | 'image/webp' | 'image/svg+xml';

const startsWith = (bytes: Buffer, signature: number[], offset = 0): boolean =>
  bytes.length >= offset + signature.length && signature.every((byte, index) => bytes[offset + index] === byte);

/** Recognises an image by its content, never by its name or declared type. */
export function detectImageType(bytes: Buffer): ImageContentType | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp';
  if (looksLikeSvg(bytes)) return 'image/svg+xml';
  return null;
}

function looksLikeSvg(bytes: Buffer): boolean {
  const head = bytes.subarray(0, 4096).toString('utf8').replace(/^\uFEFF/, '');
  // An XML prolog, comments and a doctype may precede the root element, which must be <svg>.
  const withoutPreamble = head.replace(/^\s*(<\?xml[\s\S]*?\?>\s*)?((<!--[\s\S]*?-->|<!DOCTYPE[^>]*>)\s*)*/i, '');
  return /^<svg[\s>]/.test(withoutPreamble);
}

/**
 * Keeps drawing elements and presentation attributes only: no scripts, no event handlers,
 * no foreignObject, no style sheets, and references (`href`) only to fragments of the same
 * document or inline raster data.
 *
 * Self-contained on purpose (it names nothing outside its body): the sanitizer worker runs
 * this very function from its source text (see svg-sanitizer.pool.ts).
 */
export function sanitizeSvgWith(sanitize: typeof sanitizeHtml, svg: string): string {
  const tags = [
    'svg', 'g', 'defs', 'symbol', 'use', 'title', 'desc', 'path', 'rect', 'circle', 'ellipse', 'line', 'polyline', 'polygon',
    'text', 'tspan', 'textPath', 'linearGradient', 'radialGradient', 'stop', 'clipPath', 'mask', 'pattern', 'marker', 'image',
  ];
  const attributes = [
    'id', 'class', 'x', 'y', 'x1', 'y1', 'x2', 'y2', 'cx', 'cy', 'r', 'rx', 'ry', 'width', 'height', 'd', 'points', 'viewBox',
    'preserveAspectRatio', 'xmlns', 'version', 'transform', 'fill', 'fill-opacity', 'fill-rule', 'stroke', 'stroke-width',
    'stroke-linecap', 'stroke-linejoin', 'stroke-dasharray', 'stroke-dashoffset', 'stroke-opacity', 'stroke-miterlimit', 'opacity',
    'offset', 'stop-color', 'stop-opacity', 'gradientUnits', 'gradientTransform', 'spreadMethod', 'fx', 'fy', 'clip-path',
    'clip-rule', 'clipPathUnits', 'mask', 'maskUnits', 'patternUnits', 'patternTransform', 'markerWidth', 'markerHeight', 'refX',
    'refY', 'orient', 'font-family', 'font-size', 'font-weight', 'font-style', 'text-anchor', 'dominant-baseline', 'dx', 'dy',
    'letter-spacing', 'visibility', 'display', 'href', 'xlink:href', 'xmlns:xlink',
  ];
  return sanitize(svg, {
    allowedTags: tags,
    allowedAttributes: { '*': attributes },
    allowedSchemes: [],
    allowedSchemesAppliedToAttributes: [],
    disallowedTagsMode: 'discard',
    parser: { xmlMode: true, lowerCaseTags: false, lowerCaseAttributeNames: false },
    exclusiveFilter: () => false,
    transformTags: {
      '*': (tagName, attribs) => {
        const kept = { ...attribs };
        for (const name of ['href', 'xlink:href']) {
          const value = kept[name]?.trim() ?? '';
          if (value && !value.startsWith('#') && !/^data:image\/(png|jpeg|webp|gif);base64,/i.test(value)) delete kept[name];
        }
        // fill="url(#gradient)" is fine; url() of anything else would fetch another resource.
        for (const [name, value] of Object.entries(kept)) {
          if (/url\s*\(/i.test(value) && !/^\s*url\(\s*['"]?#[\w.-]+['"]?\s*\)\s*$/i.test(value)) delete kept[name];
        }
        return { tagName, attribs: kept };
      },
    },
  });
}

/** The sanitizer on the calling thread: for tests and small trusted inputs; uploads use the worker pool. */
export function sanitizeSvg(svg: string): string {
  return sanitizeSvgWith(sanitizeHtml, svg);
}
