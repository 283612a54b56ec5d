/** Pure: where a floating panel goes next to the element that opened it (kit/Popover.tsx). */

/** Margin kept from the window's edges and from the anchor, in CSS pixels. */
const GAP = 4;
const EDGE = 8;

/**
 * Where a panel of size `w`×`h` goes next to `anchor` inside a `vw`×`vh` window: below it, its
 * right edge on the anchor's (its left edge on the anchor's when that runs off the left), above
 * it when there is no room below; never outside the window.
 */
export function placePanel(anchor: { top: number; bottom: number; left: number; right: number }, w: number, h: number, vw: number, vh: number): { left: number; top: number } {
  let left = anchor.right - w;
  if (left < EDGE) left = anchor.left;
  left = Math.max(EDGE, Math.min(left, vw - w - EDGE));
  let top = anchor.bottom + GAP;
  if (top + h > vh - EDGE && anchor.top - GAP - h >= EDGE) top = anchor.top - GAP - h;
  top = Math.max(EDGE, Math.min(top, vh - h - EDGE));
  return { left, top };
}
