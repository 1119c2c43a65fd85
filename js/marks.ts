/** A teacher's marks on the table: arrows between piles and circles on piles or cards, drawn in one SVG overlay
 * above the cards that never takes a pointer event. The geometry is pure (boxes in, shapes out); the board gives
 * the boxes of piles and cards, relative to the table, and redraws on every state and every refit. While a lesson
 * is recorded, a right-drag or Shift-drag from one pile or card to another makes an arrow, onto the same place a
 * circle (`gestureMark`), as on Lichess. */

import type { CardId, Mark, MarkColor, PileId } from "./types";
import { MARK_COLORS, PILE_PATTERN } from "./vocabulary";

export { MARK_COLORS };

/** A box relative to the table. */
export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

export type Shape =
  | { kind: "arrow"; x1: number; y1: number; x2: number; y2: number; width: number; color: string; head: string; name: string }
  | { kind: "circle"; cx: number; cy: number; r: number; width: number; color: string; name: string };



function colorOf(mark: Mark): string {
  const name = mark.color && mark.color in MARK_COLORS ? mark.color : "green";
  return MARK_COLORS[name];
}

/** The shape of `mark`: `place` gives the box a pile's arrows start and end on (its top card) or a circled card's
 * visible part; `unit` is the card width. Null when a place is not on the board (a card not face up). */
export function markShape(mark: Mark, place: (name: string) => Box | null, unit: number): Shape | null {
  const width = Math.max(3, unit * 0.09);
  const color = colorOf(mark);
  if ("arrow" in mark && Array.isArray(mark.arrow)) {
    const a = place(mark.arrow[0]);
    const b = place(mark.arrow[1]);
    if (!a || !b) return null;
    const x1 = a.left + a.width / 2;
    const y1 = a.top + a.height / 2;
    let x2 = b.left + b.width / 2;
    let y2 = b.top + b.height / 2;
    const length = Math.hypot(x2 - x1, y2 - y1);
    if (length < 1) return null;
    const ux = (x2 - x1) / length;
    const uy = (y2 - y1) / length;
    const size = width * 2.6;
    // the head's tip stands on the target's centre; the line stops at the head's base
    const bx = x2 - ux * size;
    const by = y2 - uy * size;
    const px = -uy * size * 0.6;
    const py = ux * size * 0.6;
    const head = [
      [x2, y2],
      [bx + px, by + py],
      [bx - px, by - py],
    ]
      .map(([x, y]) => `${round(x)},${round(y)}`)
      .join(" ");
    x2 = bx + ux * 1;
    y2 = by + uy * 1;
    const name = `${mark.arrow[0]}>${mark.arrow[1]}`;
    return { kind: "arrow", x1: round(x1), y1: round(y1), x2: round(x2), y2: round(y2), width, color, head, name };
  }
  if ("circle" in mark && typeof mark.circle === "string") {
    const box = place(mark.circle);
    if (!box) return null;
    const r = Math.max(4, Math.min(box.width, box.height) / 2 - width / 2);
    const cx = box.left + box.width / 2;
    const cy = box.top + box.height / 2;
    return { kind: "circle", cx: round(cx), cy: round(cy), r: round(r), width, color, name: mark.circle };
  }
  return null;
}

function round(v: number): number {
  return Math.round(v * 10) / 10;
}

/** Where a mark gesture starts or ends: the pile under the pointer, and the face-up card, if any. */
export interface Spot {
  pile: PileId;
  card: CardId | null;
}

/** The colour a gesture draws with, by the keys held: none green, Alt red, Ctrl (or Cmd) blue, both yellow. */
export function gestureColor(alt: boolean, ctrl: boolean): MarkColor {
  return alt && ctrl ? "yellow" : alt ? "red" : ctrl ? "blue" : "green";
}

/** The mark a gesture from `start` to `end` makes: an arrow between two piles, or a circle on the card (else the
 * pile) where it started and ended. Null for a gesture that ends off the table. */
export function gestureMark(start: Spot, end: Spot | null, color: MarkColor = "green"): Mark | null {
  if (!end || !PILE_PATTERN.test(start.pile) || !PILE_PATTERN.test(end.pile)) return null;
  const paint = color === "green" ? {} : { color };
  if (start.pile !== end.pile) return { arrow: [start.pile, end.pile], ...paint };
  const card = start.card && start.card === end.card ? start.card : null;
  return { circle: card ?? start.pile, ...paint };
}

const SVG = "http://www.w3.org/2000/svg";

/** Draws `shapes` into the overlay `svg` (sized to the table), replacing what it held. */
export function drawShapes(svg: SVGSVGElement, shapes: Shape[]): void {
  const doc = svg.ownerDocument;
  const nodes: SVGElement[] = [];
  for (const s of shapes) {
    const g = doc.createElementNS(SVG, "g");
    g.setAttribute("class", `pl-mark pl-mark-${s.kind}`);
    g.setAttribute("opacity", "0.62");
    g.setAttribute("data-mark", s.name);
    if (s.kind === "arrow") {
      const line = doc.createElementNS(SVG, "line");
      for (const [k, v] of Object.entries({ x1: s.x1, y1: s.y1, x2: s.x2, y2: s.y2 })) line.setAttribute(k, String(v));
      line.setAttribute("stroke", s.color);
      line.setAttribute("stroke-width", String(s.width));
      line.setAttribute("stroke-linecap", "round");
      const head = doc.createElementNS(SVG, "polygon");
      head.setAttribute("points", s.head);
      head.setAttribute("fill", s.color);
      g.append(line, head);
    } else {
      const ring = doc.createElementNS(SVG, "circle");
      for (const [k, v] of Object.entries({ cx: s.cx, cy: s.cy, r: s.r })) ring.setAttribute(k, String(v));
      ring.setAttribute("fill", "none");
      ring.setAttribute("stroke", s.color);
      ring.setAttribute("stroke-width", String(s.width));
      g.append(ring);
    }
    nodes.push(g);
  }
  svg.replaceChildren(...nodes);
}
