/** Animations from before/after positions on requestAnimationFrame (FLIP), snap-back and the win celebration. */

import { parseCard, rankText } from "./cards";

export interface Point {
  x: number;
  y: number;
}

interface Tween {
  el: HTMLElement;
  dx: number;
  dy: number;
  start: number;
  duration: number;
  done: () => void;
}

const easeOut = (t: number): number => 1 - (1 - t) ** 3;

/** True when the user asked for reduced motion (or the environment cannot tell). */
export function reducedMotion(win: Window): boolean {
  return typeof win.matchMedia === "function" && win.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** Runs translate tweens towards each element's own place, all on one requestAnimationFrame loop. */
export class Animator {
  private tweens = new Map<HTMLElement, Tween>();
  private frame = 0;

  constructor(private readonly win: Window) {}

  get enabled(): boolean {
    return typeof this.win.requestAnimationFrame === "function" && !reducedMotion(this.win);
  }

  /** The element's visual top-left now (including any running tween or drag offset). */
  static place(el: HTMLElement): Point {
    const r = el.getBoundingClientRect();
    return { x: r.left, y: r.top };
  }

  /** Animates `el` from the visual place `before` to where it is laid out now. */
  flip(el: HTMLElement, before: Point, duration = 220): void {
    this.stop(el);
    const after = Animator.place(el);
    const dx = before.x - after.x;
    const dy = before.y - after.y;
    if (!this.enabled || (Math.abs(dx) < 0.5 && Math.abs(dy) < 0.5)) {
      this.clear(el);
      return;
    }
    const distance = Math.hypot(dx, dy);
    const time = Math.min(420, duration + distance * 0.25);
    this.run(el, dx, dy, time);
  }

  /** Animates `el` back from an offset (a drag that was not accepted) to its place. */
  snapBack(el: HTMLElement, dx: number, dy: number): void {
    this.stop(el);
    if (!this.enabled) {
      this.clear(el);
      return;
    }
    this.run(el, dx, dy, Math.min(380, 180 + Math.hypot(dx, dy) * 0.3));
  }

  private run(el: HTMLElement, dx: number, dy: number, duration: number): void {
    el.classList.add("pl-moving");
    el.style.transform = `translate(${dx}px, ${dy}px)`;
    this.tweens.set(el, { el, dx, dy, start: -1, duration, done: () => this.clear(el) });
    if (!this.frame) this.frame = this.win.requestAnimationFrame(this.tick);
  }

  private readonly tick = (now: number): void => {
    this.frame = 0;
    for (const tween of [...this.tweens.values()]) {
      if (tween.start < 0) tween.start = now;
      const t = Math.min(1, (now - tween.start) / tween.duration);
      if (t >= 1) {
        this.tweens.delete(tween.el);
        tween.done();
        continue;
      }
      const k = 1 - easeOut(t);
      tween.el.style.transform = `translate(${tween.dx * k}px, ${tween.dy * k}px)`;
    }
    if (this.tweens.size) this.frame = this.win.requestAnimationFrame(this.tick);
  };

  /** Stops a running tween where it is. */
  stop(el: HTMLElement): void {
    this.tweens.delete(el);
  }

  private clear(el: HTMLElement): void {
    el.style.transform = "";
    el.classList.remove("pl-moving");
  }

  /** Stops everything (cleanup). */
  destroy(): void {
    if (this.frame) this.win.cancelAnimationFrame(this.frame);
    this.frame = 0;
    for (const tween of this.tweens.values()) this.clear(tween.el);
    this.tweens.clear();
  }
}

interface Bouncer {
  card: string;
  x: number;
  y: number;
  vx: number;
  vy: number;
}

/**
 * The win celebration: cards leave the foundations one after another and bounce across the table,
 * leaving trails, like the classic desktop game. Draws on a canvas over `host`; ends by itself.
 */
export function celebrate(host: HTMLElement, cardW: number, origins: Point[], signal: AbortSignal): void {
  const win = host.ownerDocument.defaultView;
  if (!win || reducedMotion(win) || typeof win.requestAnimationFrame !== "function") return;
  const canvas = host.ownerDocument.createElement("canvas");
  const ctx = canvas.getContext("2d");
  if (!ctx) return;
  const box = host.getBoundingClientRect();
  const ratio = win.devicePixelRatio || 1;
  canvas.className = "pl-celebration";
  canvas.width = Math.round(box.width * ratio);
  canvas.height = Math.round(box.height * ratio);
  canvas.setAttribute("aria-hidden", "true");
  host.append(canvas);
  ctx.scale(ratio, ratio);
  const w = Math.max(24, cardW);
  const h = w * 1.4;
  const order: string[] = [];
  for (let rank = 13; rank >= 1; rank--) for (const suit of "SHDC") order.push(rankText(rank).replace("10", "T") + suit);
  const bouncers: Bouncer[] = [];
  let next = 0;
  let frame = 0;
  let last = 0;
  let started = 0;
  const stop = (): void => {
    win.cancelAnimationFrame(frame);
    canvas.remove();
  };
  signal.addEventListener("abort", stop, { once: true });
  const launch = (): void => {
    const card = order[next];
    const suitIndex = "CDHS".indexOf(card[card.length - 1]);
    const from = origins[suitIndex] ?? { x: box.width - w * (4 - suitIndex), y: 0 };
    const speed = 2 + Math.random() * 4;
    bouncers.push({ card, x: from.x, y: from.y, vx: Math.random() < 0.8 ? -speed : speed, vy: -Math.random() * 6 });
    next++;
  };
  const step = (now: number): void => {
    if (!started) started = now;
    if (next < order.length && now - last > 160) {
      launch();
      last = now;
    }
    for (const b of bouncers) {
      b.vy += 0.55;
      b.x += b.vx;
      b.y += b.vy;
      if (b.y + h > box.height) {
        b.y = box.height - h;
        b.vy = -b.vy * 0.78;
      }
      drawCard(ctx, b.card, b.x, b.y, w, h);
    }
    for (let i = bouncers.length - 1; i >= 0; i--) {
      const b = bouncers[i];
      if (b.x + w < 0 || b.x > box.width) bouncers.splice(i, 1);
    }
    const finished = next >= order.length && bouncers.length === 0;
    if (finished || now - started > 14000) {
      canvas.classList.add("pl-fade");
      win.setTimeout(stop, 600);
      return;
    }
    frame = win.requestAnimationFrame(step);
  };
  frame = win.requestAnimationFrame(step);
}

function drawCard(ctx: CanvasRenderingContext2D, id: string, x: number, y: number, w: number, h: number): void {
  const card = parseCard(id);
  if (!card) return;
  ctx.fillStyle = "#fdfdfb";
  ctx.strokeStyle = "#555";
  ctx.lineWidth = 1;
  ctx.beginPath();
  const r = w * 0.08;
  ctx.moveTo(x + r, y);
  ctx.arcTo(x + w, y, x + w, y + h, r);
  ctx.arcTo(x + w, y + h, x, y + h, r);
  ctx.arcTo(x, y + h, x, y, r);
  ctx.arcTo(x, y, x + w, y, r);
  ctx.closePath();
  ctx.fill();
  ctx.stroke();
  ctx.fillStyle = card.red ? "#c62828" : "#1b1b1b";
  ctx.font = `700 ${Math.round(w * 0.32)}px system-ui, sans-serif`;
  ctx.textBaseline = "top";
  ctx.fillText(rankText(card.rank), x + w * 0.08, y + w * 0.06);
  ctx.font = `${Math.round(w * 0.55)}px serif`;
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  ctx.fillText({ C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" }[card.suit] + "\uFE0E", x + w / 2, y + h * 0.58);
  ctx.textAlign = "start";
}
