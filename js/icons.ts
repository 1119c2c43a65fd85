/** The board's icons, from the Lucide icon set (only the ones named here go into the bundle). An icon is drawn
 * with `currentColor` and hidden from assistive technology: the button that holds it carries the name, from the
 * catalogues. */

import {
  ChevronLeft,
  ChevronRight,
  CircleStop,
  Ellipsis,
  Eye,
  FlagTriangleLeft,
  FlagTriangleRight,
  Lightbulb,
  Pause,
  Play,
  Plus,
  Redo2,
  RotateCcw,
  SkipBack,
  SkipForward,
  TriangleAlert,
  Undo2,
  WandSparkles,
  X,
  type IconNode,
} from "lucide";

const SVG_NS = "http://www.w3.org/2000/svg";

/** Every icon the board shows, by the action (or thing) it stands for. */
export const ICONS = {
  new: Plus,
  restart: RotateCcw,
  undo: Undo2,
  redo: Redo2,
  hint: Lightbulb,
  autocomplete: WandSparkles,
  "stop-autoplay": CircleStop,
  "cancel-review": CircleStop,
  "show-moves": Eye,
  more: Ellipsis,
  first: SkipBack,
  back: ChevronLeft,
  play: Play,
  pause: Pause,
  forward: ChevronRight,
  last: SkipForward,
  "prev-mark": FlagTriangleLeft,
  "next-mark": FlagTriangleRight,
  close: X,
  warning: TriangleAlert,
} satisfies Record<string, IconNode>;

export type IconName = keyof typeof ICONS;

/** An `<svg>` of the icon `name`, 1em square, `aria-hidden`. */
export function icon(doc: Document, name: IconName): SVGSVGElement {
  const svg = doc.createElementNS(SVG_NS, "svg");
  const attrs: Record<string, string> = {
    viewBox: "0 0 24 24",
    fill: "none",
    stroke: "currentColor",
    "stroke-width": "2",
    "stroke-linecap": "round",
    "stroke-linejoin": "round",
    class: `pl-svg-icon pl-svg-${name}`,
    "aria-hidden": "true",
    focusable: "false",
  };
  for (const [key, value] of Object.entries(attrs)) svg.setAttribute(key, value);
  for (const [tag, props] of ICONS[name]) {
    const part = doc.createElementNS(SVG_NS, tag);
    for (const [key, value] of Object.entries(props)) part.setAttribute(key, String(value));
    svg.append(part);
  }
  return svg;
}
