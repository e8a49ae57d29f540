import { ValidateBy } from 'class-validator';
import { scanMarkup } from './markup-scan';

/**
 * Bounds on HTML sent in `info` fields, checked before sanitize-html sees it: its cost grows
 * faster than the input with nesting (64 KB of nested `<b>` took 0.6 s, blocking the event
 * loop). Rich descriptions nest a handful of levels and hold a few hundred elements.
 */
export const RICH_TEXT_LIMITS = { maxDepth: 100, maxElements: 5_000 } as const;

/** HTML elements that never contain others: they do not nest. */
const VOID_ELEMENTS = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);

/** Why an HTML text is too complex to sanitize, or null when it is fine. */
export function richTextProblem(html: string): string | null {
  const scan = scanMarkup(html, RICH_TEXT_LIMITS, (name) => VOID_ELEMENTS.has(name));
  if (scan.ok) return null;
  return scan.reason === 'depth' ? `nests HTML elements more than ${scan.limit} levels deep` : `has more than ${scan.limit} HTML elements`;
}

/** Validates an HTML field against RICH_TEXT_LIMITS (a 422 naming the field). */
export const BoundedRichText = () =>
  ValidateBy({
    name: 'boundedRichText',
    validator: {
      validate: (value: unknown) => typeof value !== 'string' || richTextProblem(value) === null,
      defaultMessage: (args) => `${args?.property ?? 'the field'} ${richTextProblem(String(args?.value)) ?? 'is too complex'}`,
    },
  });
