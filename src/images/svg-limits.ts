import { MarkupLimits, MarkupScan, scanMarkup } from '../common/html/markup-scan';

/**
 * Bounds on an uploaded SVG, checked by a cheap linear pre-scan before the sanitizer sees it
 * (the sanitizer needs more than 15x the input in memory and slows down with nesting).
 */
export const SVG_LIMITS = {
  /** Larger SVGs are 413: a floor plan exported from CAD is typically well under 1 MiB. */
  maxBytes: 4 * 1024 * 1024,
  /** More elements are 422 (4 MiB of 100,000 small elements sanitize in about 1 s). */
  maxElements: 100_000,
  /** Deeper nesting is 422: drawings nest a few dozen groups at most. */
  maxDepth: 256,
} as const;

export type SvgScan = MarkupScan;

/** Counts an SVG's elements and nesting (XML: every unclosed tag nests). */
export function scanSvg(svg: string, limits: MarkupLimits = SVG_LIMITS): SvgScan {
  return scanMarkup(svg, limits);
}
