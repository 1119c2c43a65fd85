/** The review's chart of chances (issue 25): the player's fair chance of winning at every position of the game as
 * played, its 95% interval as a light band (a point whose interval is wide is a hollow ring off the line, one with
 * nothing decided has no mark at all), 0%, 50% and 100% on its side and the move numbers below it, the steps from
 * which the deal was lost, and the marked
 * moves (inaccuracy ?!, mistake ?, blunder ??, bad luck a die), each kind with its own colour, sign and shape, so
 * that it reads on a projector and without colour. Python computes every number; this draws them.
 *
 * `drawChart` is a pure function to SVG elements. Every point is a button (click, or Enter on the focused point:
 * the arrows move the focus along the curve) that asks for its lesson step; `ChartView` keeps the chart drawn at
 * the width it has. */

import type { ChancePoint, Labels, ReviewChart, ReviewMark, ReviewMarkLabel } from "./types";
import { phrase, word } from "./words";

const SVG = "http://www.w3.org/2000/svg";

/** The sign of each kind of mark, as chess notation writes them; bad luck has a die (drawn, not a letter). */
export const MARK_SIGNS: Record<ReviewMarkLabel, string> = { inaccuracy: "?!", mistake: "?", blunder: "??", luck: "" };
/** Which badges are drawn first when not all fit above the curve (the others keep their shape on the curve). */
const PRIORITY: readonly ReviewMarkLabel[] = ["blunder", "luck", "mistake", "inaccuracy"];

/** How the chart is drawn: its width and font size (px), and the language of its numbers. */
export interface ChartLook {
  width: number;
  font: number;
  lang: string;
}

type Attrs = Record<string, string | number>;

function svg<K extends keyof SVGElementTagNameMap>(
  doc: Document,
  tag: K,
  attrs: Attrs,
  parent?: Element,
): SVGElementTagNameMap[K] {
  const el = doc.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  parent?.append(el);
  return el;
}

const clamp01 = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : 0);
const r1 = (v: number): number => Math.round(v * 10) / 10;
/** A point's estimate, or null where no deal was decided (nothing measured: no number is drawn for it). */
const known = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** A percentage in the board's language ("35%", "35 %"). */
export function percent(lang: string): (v: number) => string {
  let format: Intl.NumberFormat;
  try {
    format = new Intl.NumberFormat(lang || undefined, { style: "percent", maximumFractionDigits: 0 });
  } catch {
    format = new Intl.NumberFormat("en", { style: "percent", maximumFractionDigits: 0 });
  }
  return (v) => format.format(v);
}

/** The marks that can be drawn (a known kind, on a step of the chart), in order of step. */
export function chartMarks(chart: ReviewChart | null | undefined): ReviewMark[] {
  const points = Array.isArray(chart?.points) ? chart.points.length : 0;
  const marks = Array.isArray(chart?.marks) ? chart.marks : [];
  return marks
    .filter((m) => m && m.label in MARK_SIGNS && Number.isInteger(m.step) && m.step >= 0 && m.step < points)
    .sort((a, b) => a.step - b.step);
}

/** What a point says (its tooltip and accessible name): "After move 12: 35%", with its interval where that is
 * wide ("After move 12: 35% (18%-56%)"), or that the chance could not be estimated, with no number, where nothing
 * was decided; and the marks on it. */
function pointText(
  step: number,
  point: ChancePoint,
  marks: ReviewMark[],
  labels: Labels,
  pct: (v: number) => string,
): string {
  const value = known(point.estimate);
  const move = String(step);
  const text =
    value === null
      ? phrase(labels, "chance-unknown-at", { move })
      : point.wide
        ? phrase(labels, "chance-range-at", {
            move,
            percent: pct(clamp01(value)),
            low: pct(clamp01(point.low)),
            high: pct(clamp01(point.high)),
          })
        : phrase(labels, "chance-at", { move, percent: pct(clamp01(value)) });
  return [text, ...marks.map((m) => word(labels, `chart-mark.${m.label}`))].join(" \u00b7 ");
}

/** The marker of a mark on the curve: a circle (inaccuracy), a square (mistake), a triangle pointing down
 * (blunder) or a diamond (bad luck), `s` px across. */
function marker(doc: Document, kind: ReviewMarkLabel, x: number, y: number, s: number, parent: Element): void {
  const h = s / 2;
  const cls = `pl-chart-mark pl-chart-${kind}`;
  if (kind === "inaccuracy") svg(doc, "circle", { class: cls, cx: x, cy: y, r: h }, parent);
  else if (kind === "mistake") svg(doc, "rect", { class: cls, x: x - h, y: y - h, width: s, height: s }, parent);
  else {
    const d = kind === "blunder" ? h * 1.25 : h * 1.3;
    const pts =
      kind === "blunder"
        ? [[x - d, y - d * 0.8], [x + d, y - d * 0.8], [x, y + d]]
        : [[x, y - d], [x + d, y], [x, y + d], [x - d, y]];
    svg(doc, "polygon", { class: cls, points: pts.map((p) => p.map(r1).join(",")).join(" ") }, parent);
  }
}

/** The step between two move numbers on the axis: the smallest of 1, 2, 5, 10, 20, 50... that leaves `room` px
 * between labels `gap` px apart a move. */
export function moveTick(gap: number, room: number): number {
  for (let tick = 1; ; tick *= 10) {
    for (const t of [tick, 2 * tick, 5 * tick]) if (t * gap >= room || t >= 1000) return t;
  }
}

/** A chart narrower than this (px) is a phone's. */
export const PHONE_CHART = 480;

/** The chart of `chart` at lesson step `step`, as an `<svg>` of `look.width` by the height its font needs (at
 * least 120 px, to be read on a projector; 90 on a phone). */
export function drawChart(
  doc: Document,
  chart: ReviewChart,
  step: number,
  labels: Labels,
  look: ChartLook,
): SVGSVGElement {
  const points = Array.isArray(chart.points) ? chart.points : [];
  const marks = chartMarks(chart);
  const f = Math.max(10, look.font);
  const width = Math.max(120, Math.round(look.width));
  const badge = Math.round(f * 1.3);
  const lane = marks.length ? badge + Math.round(f * 0.3) : 0;
  const axisRow = Math.round(f * 1.25);
  // the whole chart (its marks' lane, plot and move numbers) as tall as its font asks, at least 120 px (on a phone,
  // held in the hand, 90 px and less for its font: the board below needs the height): the plot takes what the lane
  // and the numbers leave, so the signs above it cost the cards below no height
  const phone = width < PHONE_CHART;
  const tall = Math.max(phone ? 90 : 120, Math.round(f * (phone ? 6.5 : 8.5)));
  const plot = Math.max(Math.round(f * 2.8), tall - lane - axisRow);
  const height = lane + plot + axisRow;
  const pct = percent(look.lang);
  const half = pct(0.5);
  const left = Math.ceil(Math.max(half.length, pct(1).length) * f * 0.58) + 6;
  const right = Math.ceil(f * 0.5);
  const last = Math.max(1, points.length - 1);
  const span = width - left - right;
  const x = (k: number): number => r1(left + (span * k) / last);
  const top = lane + 4;
  const bottom = lane + plot - 4;
  const y = (v: number): number => r1(bottom - (bottom - top) * clamp01(v));
  const root = svg(doc, "svg", {
    class: "pl-chart",
    width,
    height,
    viewBox: `0 0 ${width} ${height}`,
    preserveAspectRatio: "none",
    role: "group",
    "aria-label": word(labels, "chart"),
    "font-size": f,
  });
  const now = Math.min(Math.max(0, Math.round(step) || 0), points.length - 1);
  const lost = chart.lost_from;
  if (typeof lost === "number" && lost >= 0 && lost < points.length) {
    const from = lost ? x(lost - 0.5) : 0;
    svg(doc, "rect", { class: "pl-chart-lost", x: from, y: lane, width: r1(width - from), height: plot }, root);
  }
  svg(doc, "line", { class: "pl-chart-guide", x1: left, x2: width - right, y1: y(0.5), y2: y(0.5) }, root);
  for (const v of [0, 1]) svg(doc, "line", { class: "pl-chart-grid", x1: left, x2: width - right, y1: y(v), y2: y(v) }, root);
  for (const v of [0.5, 0, 1]) {
    const axis = { class: "pl-chart-axis", x: left - 5, y: y(v), "text-anchor": "end", dy: "0.35em" };
    svg(doc, "text", axis, root).textContent = v === 0.5 ? half : pct(v);
  }
  // the move numbers below the plot, as many as fit
  const tick = moveTick(span / last, f * 2.6);
  for (let k = 0; k < points.length; k += tick) {
    const label = { class: "pl-chart-move", x: x(k), y: height - 2, "text-anchor": k === 0 ? "start" : "middle" };
    svg(doc, "text", label, root).textContent = String(k);
  }
  if (points.length) {
    const along = points.map((p, k) => `${x(k)},${y(p.high)}`);
    const back = points.map((p, k) => `${x(k)},${y(p.low)}`).reverse();
    svg(doc, "polygon", { class: "pl-chart-band", points: [...along, ...back].join(" ") }, root);
    // the line, broken where no deal was decided (no number there: the band alone says what is known) and where
    // the interval is wide (a hollow ring there: a number that is no more than a guess is no point of a line)
    let run: string[] = [];
    const flush = (): void => {
      if (run.length) svg(doc, "polyline", { class: "pl-chart-line", points: run.join(" ") }, root);
      run = [];
    };
    points.forEach((p, k) => {
      const v = known(p.estimate);
      if (v === null || p.wide) flush();
      else run.push(`${x(k)},${y(v)}`);
    });
    flush();
    points.forEach((p, k) => {
      const v = known(p.estimate);
      if (v !== null && p.wide) svg(doc, "circle", { class: "pl-chart-hollow", cx: x(k), cy: y(v), r: r1(f * 0.2) }, root);
    });
    svg(doc, "line", { class: "pl-chart-now", x1: x(now), x2: x(now), y1: lane + 1, y2: height - 1 }, root);
    const here = known(points[now].estimate);
    if (here !== null) svg(doc, "circle", { class: "pl-chart-dot", cx: x(now), cy: y(here), r: r1(f * 0.28) }, root);
  }
  const size = Math.round(f * 0.7);
  // a mark where nothing was measured sits on the 50% guide, which says no number
  const at = (step: number): number => y(known(points[step].estimate) ?? 0.5);
  for (const m of marks) marker(doc, m.label, x(m.step), at(m.step), size, root);
  // the points, as buttons: a column of the chart's full height each, the one of the step shown in the tab order
  const hits = svg(doc, "g", { class: "pl-chart-points" }, root);
  const column = span / last;
  points.forEach((p, k) => {
    const from = k === 0 ? 0 : x(k) - column / 2;
    const to = k === points.length - 1 ? width : x(k) + column / 2;
    const text = pointText(k, p, marks.filter((m) => m.step === k), labels, pct);
    const hit = svg(doc, "rect", { class: "pl-chart-hit", x: r1(from), y: 0, width: r1(to - from), height }, hits);
    hit.setAttribute("role", "button");
    hit.setAttribute("tabindex", k === now ? "0" : "-1");
    hit.setAttribute("aria-label", text);
    hit.dataset.step = String(k);
    if (k === now) hit.setAttribute("aria-current", "step");
    svg(doc, "title", {}, hit).textContent = text;
  });
  // the badges above the curve (signs that do not fit beside another are left out: the shape on the curve stays)
  const lanes = svg(doc, "g", { class: "pl-chart-badges", "aria-hidden": "true" }, root);
  const placed: [number, number][] = [];
  const order = [...marks].sort((a, b) => PRIORITY.indexOf(a.label) - PRIORITY.indexOf(b.label) || a.step - b.step);
  for (const m of order) {
    const sign = MARK_SIGNS[m.label];
    const w = sign ? Math.round(sign.length * f * 0.62 + f * 0.5) : badge;
    const cx = x(m.step);
    const start = Math.min(Math.max(0, cx - w / 2), width - w);
    if (placed.some(([a, b]) => start < b + 2 && start + w > a - 2)) continue;
    placed.push([start, start + w]);
    const g = svg(doc, "g", { class: `pl-chart-badge pl-chart-${m.label}` }, lanes);
    g.dataset.step = String(m.step);
    if (m.step === now) g.classList.add("pl-chart-current");
    svg(doc, "line", { class: "pl-chart-stem", x1: cx, x2: cx, y1: badge, y2: at(m.step) }, g);
    svg(doc, "rect", { class: "pl-chart-mark", x: r1(start), y: 0.5, width: w, height: badge - 1, rx: r1(f * 0.3) }, g);
    if (sign) {
      const t = svg(doc, "text", { x: r1(start + w / 2), y: r1(badge / 2), dy: "0.36em", "text-anchor": "middle" }, g);
      t.textContent = sign;
    } else {
      // a die showing five: four corners and the middle
      for (const [dx, dy] of [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]]) {
        const [cx, cy] = [start + w / 2 + dx * badge * 0.24, badge / 2 + dy * badge * 0.24];
        svg(doc, "circle", { class: "pl-chart-pip", cx: r1(cx), cy: r1(cy), r: r1(badge * 0.09) }, g);
      }
    }
  }
  return root;
}

/** The chart's place in the lesson box: draws it again when its numbers, the step or its width change, keeps the
 * focus on the point that had it, and sends the step of a point clicked (or chosen with Enter or Space). */
export class ChartView {
  readonly el: HTMLElement;
  private drawn = "";
  private chart: ReviewChart | null = null;
  private step = 0;
  private labels: Labels = {};
  private lang = "";

  constructor(
    private readonly doc: Document,
    private readonly go: (step: number) => void,
    signal: AbortSignal,
  ) {
    this.el = doc.createElement("div");
    this.el.className = "pl-chart-box";
    this.el.hidden = true;
    this.el.addEventListener("click", (e) => this.choose(e.target), { signal });
    this.el.addEventListener("keydown", (e) => this.onKey(e), { signal });
  }

  get shown(): boolean {
    return !!this.chart;
  }

  private choose(target: EventTarget | null): void {
    const hit = target instanceof Element ? target.closest<SVGElement>("[data-step]") : null;
    if (hit) this.go(Number(hit.dataset.step));
  }

  private onKey(e: KeyboardEvent): void {
    const hit = e.target instanceof Element ? e.target.closest<SVGElement>(".pl-chart-hit") : null;
    if (!hit || e.altKey || e.ctrlKey || e.metaKey) return;
    const k = Number(hit.dataset.step);
    const count = this.chart?.points.length ?? 0;
    const moves: Record<string, number> = { ArrowLeft: k - 1, ArrowDown: k - 1, ArrowRight: k + 1, ArrowUp: k + 1 };
    Object.assign(moves, { Home: 0, End: count - 1, PageUp: k - 10, PageDown: k + 10 });
    if (e.key === "Enter" || e.key === " ") this.choose(hit);
    else if (e.key in moves) {
      const next = Math.min(count - 1, Math.max(0, moves[e.key]));
      const to = this.el.querySelector<SVGElement>(`.pl-chart-hit[data-step="${next}"]`);
      if (to) {
        hit.setAttribute("tabindex", "-1");
        to.setAttribute("tabindex", "0");
        to.focus();
      }
    } else return;
    e.preventDefault();
    e.stopPropagation();
  }

  /** Shows `chart` (hidden when null) at lesson step `step`. */
  update(chart: ReviewChart | null | undefined, step: number, labels: Labels, lang: string): void {
    const valid = !!chart && typeof chart === "object" && Array.isArray(chart.points) && chart.points.length > 0;
    this.chart = valid ? chart : null;
    this.step = step;
    this.labels = labels;
    this.lang = lang;
    this.el.hidden = !valid;
    this.redraw();
  }

  /** Draws the chart again at the width it has now, when anything it shows changed. */
  redraw(): void {
    const chart = this.chart;
    if (!chart) {
      this.drawn = "";
      this.el.replaceChildren();
      return;
    }
    const win = this.doc.defaultView;
    const width = Math.floor(this.el.clientWidth) || 480;
    const font = parseFloat(win?.getComputedStyle(this.el).fontSize ?? "") || 16;
    const keys = ["chart", "chance-at", "chance-range-at", "chance-unknown-at", ...Object.keys(MARK_SIGNS).map((k) => `chart-mark.${k}`)];
    const words = keys.map((k) => this.labels[k]);
    const key = JSON.stringify([chart, this.step, width, font, this.lang, words]);
    if (key === this.drawn) return;
    this.drawn = key;
    const active = this.doc.activeElement;
    const inside = active instanceof Element && this.el.contains(active);
    const focused = inside ? (active as SVGElement).dataset.step : undefined;
    this.el.replaceChildren(drawChart(this.doc, chart, this.step, this.labels, { width, font, lang: this.lang }));
    if (focused !== undefined) {
      const again = this.el.querySelector<SVGElement>(`.pl-chart-hit[data-step="${focused}"]`);
      if (again) {
        for (const other of this.el.querySelectorAll(".pl-chart-hit[tabindex='0']")) {
          other.setAttribute("tabindex", "-1");
        }
        again.setAttribute("tabindex", "0");
        again.focus();
      }
    }
  }
}
