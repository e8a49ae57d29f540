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
      if (inside && !placed.some((p) => p.left < box.right && box.left < p.right && p.top < box.bottom && box.top < p.bottom)) {
        placed.push(box);
        side = name;
        break;
      }
    }
    sides.set(l.id, side);
  }
  return sides;
}
