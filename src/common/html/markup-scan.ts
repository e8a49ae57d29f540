export interface MarkupLimits {
  maxElements: number;
  maxDepth: number;
}

export type MarkupScan = { ok: true; elements: number; depth: number } | { ok: false; reason: 'elements' | 'depth'; limit: number };

/**
 * Counts start tags and their nesting in one pass, skipping comments, CDATA, processing
 * instructions and declarations, and `>` inside quoted attribute values. Malformed markup
 * is not refused here (the sanitizer copes with it); the scan only has to be linear and to
 * never undercount what the sanitizer will nest. `isVoid` names elements that never nest
 * (HTML's `<br>`, `<img>`).
 */
export function scanMarkup(svg: string, limits: MarkupLimits, isVoid?: (name: string) => boolean): MarkupScan {
  let elements = 0;
  let depth = 0;
  let deepest = 0;
  let index = svg.indexOf('<');
  const skipTo = (terminator: string, from: number): number => {
    const end = svg.indexOf(terminator, from);
    return end < 0 ? svg.length : end + terminator.length;
  };
  while (index >= 0 && index < svg.length) {
    const next = svg.charCodeAt(index + 1);
    if (svg.startsWith('<!--', index)) index = skipTo('-->', index + 4);
    else if (svg.startsWith('<![CDATA[', index)) index = skipTo(']]>', index + 9);
    else if (next === 0x3f /* ? */) index = skipTo('?>', index + 2);
    else if (next === 0x21 /* ! */) index = skipTo('>', index + 2);
    else if (next === 0x2f /* / */) {
      depth = Math.max(0, depth - 1);
      index = skipTo('>', index + 2);
    } else if (isNameStart(next)) {
      // A start tag: find its end outside quoted attribute values.
      let cursor = index + 1;
      let quote = 0;
      for (; cursor < svg.length; cursor += 1) {
        const code = svg.charCodeAt(cursor);
        if (quote !== 0) {
          if (code === quote) quote = 0;
        } else if (code === 0x22 || code === 0x27) quote = code;
        else if (code === 0x3e /* > */) break;
      }
      elements += 1;
      if (elements > limits.maxElements) return { ok: false, reason: 'elements', limit: limits.maxElements };
      if (svg.charCodeAt(cursor - 1) !== 0x2f /* / */ && !isVoid?.(tagName(svg, index + 1))) {
        depth += 1;
        if (depth > limits.maxDepth) return { ok: false, reason: 'depth', limit: limits.maxDepth };
        deepest = Math.max(deepest, depth);
      }
      index = cursor + 1;
    } else {
      index += 1;
    }
    index = svg.indexOf('<', index);
  }
  return { ok: true, elements, depth: deepest };
}

/** The lower-cased name of the tag starting at `from`. */
function tagName(text: string, from: number): string {
  let end = from;
  while (end < text.length && end - from < 32 && !/[\s/>]/.test(text[end])) end += 1;
  return text.slice(from, end).toLowerCase();
}

function isNameStart(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x5f || code === 0x3a || code > 0x7f;
}
