/** A label to place beside its dot: the dot's point and the label's size, in pixels of the map. */
export interface LabelToPlace {
  id: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

export type LabelSide = 'right' | 'left' | null;

/** Gap between a dot's centre and its label, in pixels (the stylesheet's translate). */
export const LABEL_GAP_PX = 8;

/**
 * Clear space kept between two labels, in pixels: sizes and dot positions are fractional (the map
 * zooms in fractions), so labels that merely touch in the arithmetic could cover each other's edge
 * by a sub-pixel once drawn; a pixel apart they read as two.
 */
export const LABEL_SPACING_PX = 1;

/**
 * Where each age label goes, in the order given: right of its dot, else left of it, else hidden
 * (null) when both would overlap a label already placed or leave the map (width × height).
 */
export function placeLabels(labels: LabelToPlace[], width: number, height: number): Map<string, LabelSide> {
  const placed: Array<{ left: number; top: number; right: number; bottom: number }> = [];
  const sides = new Map<string, LabelSide>();
  for (const l of labels) {
    const top = l.y - l.height / 2;
    const bottom = top + l.height;
    const options: Array<[LabelSide, number]> = [
      ['right', l.x + LABEL_GAP_PX],
      ['left', l.x - LABEL_GAP_PX - l.width],
    ];
    let side: LabelSide = null;
    for (const [name, left] of options) {
      const box = { left, top, right: left + l.width, bottom };
      const inside = box.left >= 0 && box.top >= 0 && box.right <= width && box.bottom <= height;
      const s = LABEL_SPACING_PX;
      if (inside && !placed.some((p) => p.left < box.right + s && box.left < p.right + s && p.top < box.bottom + s && box.top < p.bottom + s)) {
        placed.push(box);
        side = name;
        break;
      }
    }
    sides.set(l.id, side);
  }
  return sides;
}
