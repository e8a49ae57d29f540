import sanitizeHtml from 'sanitize-html';

/**
 * Keeps drawing elements and presentation attributes only: no scripts, no event handlers,
 * no foreignObject, no style sheets, and references (`href`) only to fragments of the same
 * document or inline raster data.
 *
 * Self-contained on purpose (it names nothing outside its body): the sanitizer worker runs
 * this very function from its source text (see sanitizer-pool.ts).
 */
export function sanitizeSvgWith(sanitize: typeof sanitizeHtml, svg: string): string {
  const tags = [
    'svg',
    'g',
    'defs',
    'symbol',
    'use',
    'title',
    'desc',
    'path',
    'rect',
    'circle',
    'ellipse',
    'line',
    'polyline',
    'polygon',
    'text',
    'tspan',
    'textPath',
    'linearGradient',
    'radialGradient',
    'stop',
    'clipPath',
    'mask',
    'pattern',
    'marker',
    'image',
  ];
  const attributes = [
    'id',
    'class',
    'x',
    'y',
    'x1',
    'y1',
    'x2',
    'y2',
    'cx',
    'cy',
    'r',
    'rx',
    'ry',
    'width',
    'height',
    'd',
    'points',
    'viewBox',
    'preserveAspectRatio',
    'xmlns',
    'version',
    'transform',
    'fill',
    'fill-opacity',
    'fill-rule',
    'stroke',
    'stroke-width',
    'stroke-linecap',
    'stroke-linejoin',
    'stroke-dasharray',
    'stroke-dashoffset',
    'stroke-opacity',
    'stroke-miterlimit',
    'opacity',
    'offset',
    'stop-color',
    'stop-opacity',
    'gradientUnits',
    'gradientTransform',
    'spreadMethod',
    'fx',
    'fy',
    'clip-path',
    'clip-rule',
    'clipPathUnits',
    'mask',
    'maskUnits',
    'patternUnits',
    'patternTransform',
    'markerWidth',
    'markerHeight',
    'refX',
    'refY',
    'orient',
    'font-family',
    'font-size',
    'font-weight',
    'font-style',
    'text-anchor',
    'dominant-baseline',
    'dx',
    'dy',
    'letter-spacing',
    'visibility',
    'display',
    'href',
    'xlink:href',
    'xmlns:xlink',
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
