/** Teaching mode, a presenter layout: the title (it wraps, never cut), "Step k of n" and the close button, a caption
 * box that shows every word (caption, teacher's note, narration) and never scrolls, and the step controls (first,
 * back, play/pause, forward, last, pace), with the timer that steps while playing. A game review adds its chart of
 * chances beside the controls (`chart.ts`) and the previous / next marked move buttons. The caption box keeps the
 * height of the longest text it has shown in this lesson, so the table moves only when a longer text first needs
 * the room (the board then gives it: its cards shrink, words do not). */

import { ChartView, chartMarks } from "./chart";
import { button, node } from "./dom";
import { icon, type IconName } from "./icons";
import type { GameState, IntentBody, Labels, LessonAction, LessonState } from "./types";
import { countPhrase, word } from "./words";

type Send = (body: IntentBody) => void;

const PACE_MIN = 0.5;
const PACE_MAX = 10;

const STEPS = ["first", "back", "play", "forward", "last"] as const satisfies readonly LessonAction[];
/** A review's jumps to the marked moves before and after the step shown. */
const MARK_STEPS = ["prev-mark", "next-mark"] as const;

export function clampPace(pace: number): number {
  return Math.min(PACE_MAX, Math.max(PACE_MIN, Number.isFinite(pace) ? pace : 2));
}

export class LessonView {
  readonly el: HTMLElement;
  private readonly title: HTMLElement;
  private readonly counter: HTMLElement;
  /** The quiz score ("Right answers: 1 of 2"), once a quiz step was asked or waits. */
  private readonly score: HTMLElement;
  private readonly closer: HTMLButtonElement;
  private readonly caption: HTMLElement;
  private readonly note: HTMLElement;
  private readonly narration: HTMLElement;
  /** The caption box of steady height. */
  private readonly textBox: HTMLElement;
  private readonly controls: HTMLElement;
  private readonly buttons = new Map<string, HTMLButtonElement>();
  private readonly resume: HTMLButtonElement;
  private readonly paceBox: HTMLElement;
  private readonly paceName: HTMLElement;
  private readonly pace: HTMLInputElement;
  private readonly paceOut: HTMLElement;
  /** The review's chart of chances and its mark buttons (shown only in a review lesson with a chart). */
  readonly chart: ChartView;
  private readonly markSteps: HTMLElement;
  private lesson: LessonState | null = null;
  /** The caption box's height so far in this lesson (px), and what it was measured for: lesson title, width. */
  private reserved = 0;
  private reservedFor = "";
  /** The lesson shown (its title and number of steps), to tell when another one comes. */
  private shownFor = "";
  private timer = 0;
  private timerPace = 0;
  private readonly win: Window;

  constructor(
    private readonly doc: Document,
    private readonly send: Send,
    signal: AbortSignal,
  ) {
    this.win = doc.defaultView ?? window;
    this.el = this.node("section", "pl-lesson");
    this.el.hidden = true;
    const head = this.node("div", "pl-lesson-head");
    this.title = this.node("h2", "pl-lesson-title");
    this.counter = this.node("span", "pl-lesson-step");
    this.score = this.node("span", "pl-lesson-score");
    this.closer = this.button("close", "pl-close");
    this.closer.append(icon(doc, "close"));
    head.append(this.title, this.score, this.counter, this.closer);
    this.caption = this.node("p", "pl-lesson-caption");
    this.note = this.node("p", "pl-lesson-note");
    this.narration = this.node("p", "pl-lesson-narration");
    const text = this.node("div", "pl-lesson-text");
    this.textBox = text;
    text.append(this.caption, this.note, this.narration);
    this.controls = this.node("div", "pl-lesson-controls");
    const steps = this.node("div", "pl-lesson-steps");
    for (const action of STEPS) steps.append(this.button(action, "pl-btn pl-step"));
    this.markSteps = this.node("div", "pl-lesson-steps pl-mark-steps");
    for (const action of MARK_STEPS) this.markSteps.append(this.button(action, "pl-btn pl-step"));
    this.chart = new ChartView(doc, (step) => this.send({ type: "lesson", action: "goto", step }), signal);
    this.resume = this.button("resume", "pl-btn pl-btn-primary pl-resume");
    this.paceBox = this.node("label", "pl-pace");
    this.paceName = this.node("span", "pl-pace-name");
    this.pace = doc.createElement("input");
    this.pace.type = "range";
    this.pace.min = String(PACE_MIN);
    this.pace.max = String(PACE_MAX);
    this.pace.step = "0.5";
    this.pace.className = "pl-pace-input";
    this.paceOut = this.node("output", "pl-pace-value");
    this.paceBox.append(this.paceName, this.pace, this.paceOut);
    this.controls.append(steps, this.markSteps, this.resume, this.paceBox, this.chart.el);
    this.el.append(head, text, this.controls);
    this.el.addEventListener("click", (e) => this.onClick(e), { signal });
    this.pace.addEventListener("input", () => this.showPace(Number(this.pace.value)), { signal });
    this.pace.addEventListener(
      "change",
      () => this.send({ type: "lesson", action: "pace", pace: clampPace(Number(this.pace.value)) }),
      { signal },
    );
    signal.addEventListener("abort", () => this.stopTimer(), { once: true });
  }

  private node(tag: string, className: string): HTMLElement {
    return node(this.doc, tag, className);
  }

  private button(action: string, className: string): HTMLButtonElement {
    const b = button(this.doc, className, "lesson", action);
    this.buttons.set(action, b);
    return b;
  }

  private icon(b: HTMLButtonElement, name: IconName): void {
    if (b.dataset.icon === name) return;
    b.dataset.icon = name;
    b.replaceChildren(icon(this.doc, name));
  }

  get shown(): boolean {
    return !!this.lesson;
  }

  /** Whether the step keys apply (a lesson is shown and the teacher has not taken over). */
  get stepping(): boolean {
    return !!this.lesson && !this.lesson.taken_over;
  }

  /** Sends a step control; a pause stops the local timer at once. */
  step(action: LessonAction): void {
    const lesson = this.lesson;
    if (!lesson) return;
    if (action === "play" && lesson.playing) action = "pause";
    if (action === "pause") this.stopTimer();
    this.send({ type: "lesson", action });
  }

  private onClick(e: Event): void {
    const target = e.target instanceof Element ? e.target.closest<HTMLButtonElement>("[data-lesson]") : null;
    if (!target || target.disabled) return;
    const action = target.dataset.lesson;
    if (action === "prev-mark" || action === "next-mark") this.send({ type: "lesson", action });
    else this.step(action as LessonAction);
  }

  /** The narration, a hint or a rejection under the caption (`kind` colours it). */
  setNarration(text: string, kind = ""): void {
    this.narration.textContent = text;
    this.narration.hidden = !text;
    this.narration.dataset.kind = text ? kind : "";
    this.reserve();
  }

  /** Keeps the caption box as tall as the longest text shown in this lesson at this width: it grows when a text
   * needs more room (never scrolls), and does not shrink back between steps. */
  reserve(): void {
    const box = this.textBox;
    if (!this.lesson || !box.isConnected) return;
    const key = `${this.lesson.title ?? ""}|${this.lesson.steps}|${box.clientWidth}`;
    if (key !== this.reservedFor) {
      this.reservedFor = key;
      this.reserved = 0;
      box.style.minHeight = "";
    }
    const needs = Math.ceil(Math.max(box.scrollHeight, box.getBoundingClientRect().height) - 0.01);
    if (needs > this.reserved) {
      this.reserved = needs;
      box.style.minHeight = `${needs}px`;
    }
    this.chart.redraw();
  }

  update(state: GameState, labels: Labels): void {
    const lesson = state.lesson && typeof state.lesson === "object" ? state.lesson : null;
    this.lesson = lesson;
    this.el.hidden = !lesson;
    this.el.setAttribute("aria-label", word(labels, "lesson"));
    if (!lesson) {
      this.shownFor = "";
      this.stopTimer();
      this.chart.update(null, 0, labels, state.lang);
      return;
    }
    const shown = `${lesson.title ?? ""}|${lesson.steps}`;
    if (shown !== this.shownFor) {
      // another lesson: the words under the caption were the last one's (a quiz's rejection, say); measured with
      // them, the caption box would keep their room for the whole lesson and take it from the cards
      this.shownFor = shown;
      this.narration.textContent = "";
      this.narration.hidden = true;
      this.narration.dataset.kind = "";
    }
    this.title.textContent = lesson.title ?? "";
    this.title.title = lesson.title ?? "";
    this.title.hidden = !lesson.title;
    const quiz = lesson.quiz && typeof lesson.quiz === "object" ? lesson.quiz : null;
    // steps count from 1, as `Lesson.judge` counts them: while the class answers step N's question, "Step N"
    const number = quiz?.waiting ? lesson.step + 1 : lesson.step;
    const stepOf = (n: number): string =>
      countPhrase(labels, "step-of", lesson.steps, "steps", { step: String(n) }, state.lang);
    this.counter.textContent = stepOf(number);
    // as wide as its widest text ("Step 14 of 14"), so the title beside it wraps the same at every step
    const widest = stepOf(lesson.steps);
    this.counter.style.minWidth = `${widest.length * 0.62}em`;
    this.score.textContent = quiz?.score ?? "";
    this.score.hidden = !quiz;
    this.el.classList.toggle("pl-quiz", !!quiz?.waiting);
    this.el.classList.toggle("pl-review", !!lesson.review);
    // a review's words stand alone on its step: they name the move they judge, and the narration of the move that
    // led there would only take the room the chart and the table need on a projector
    const [caption, note] = lesson.review && lesson.note ? [lesson.note, null] : [lesson.caption, lesson.note];
    this.caption.textContent = caption ?? "";
    this.note.textContent = note ?? "";
    this.note.hidden = !note;
    this.reserve();
    const taken = !!lesson.taken_over;
    this.el.classList.toggle("pl-taken-over", taken);
    this.resume.hidden = !taken;
    this.resume.textContent = word(labels, "return");
    const atStart = lesson.step <= 0;
    const atEnd = lesson.step >= lesson.steps;
    const disabled: Record<string, boolean> = { first: atStart, back: atStart, forward: atEnd, last: atEnd };
    for (const action of STEPS) {
      const b = this.buttons.get(action);
      if (!b) continue;
      const name = action === "play" && lesson.playing ? "pause" : action;
      this.icon(b, name);
      const text = word(labels, name);
      b.title = text;
      b.setAttribute("aria-label", text);
      b.disabled = taken || (!!disabled[action] && !(action === "forward" && lesson.playing));
      if (action === "play") {
        b.setAttribute("aria-pressed", String(!!lesson.playing));
        b.disabled = taken || (atEnd && !lesson.playing);
      }
    }
    this.updateChart(lesson, state.lang, labels, taken);
    this.closer.title = word(labels, "close");
    this.closer.setAttribute("aria-label", word(labels, "close"));
    this.paceName.textContent = word(labels, "pace");
    this.pace.setAttribute("aria-label", word(labels, "pace"));
    this.paceBox.title = word(labels, "pace");
    const pace = clampPace(lesson.pace);
    if (this.doc.activeElement !== this.pace) this.pace.value = String(pace);
    this.showPace(Number(this.pace.value));
    this.pace.disabled = taken;
    if (lesson.playing && !taken) this.startTimer(pace);
    else this.stopTimer();
  }

  /** The review's chart and its mark buttons: shown with a chart, the buttons only when it marks moves, each
   * disabled when no mark lies that way (and, like the step buttons, while the teacher has taken over; a click on
   * the chart still goes to its step, back in the lesson). */
  private updateChart(lesson: LessonState, lang: string, labels: Labels, taken: boolean): void {
    const chart = lesson.chart && typeof lesson.chart === "object" ? lesson.chart : null;
    this.chart.update(chart, lesson.step, labels, lang);
    this.el.classList.toggle("pl-has-chart", this.chart.shown);
    const marks = chartMarks(chart).map((m) => m.step);
    this.markSteps.hidden = !marks.length;
    const before = marks.some((s) => s < lesson.step);
    const after = marks.some((s) => s > lesson.step);
    for (const action of MARK_STEPS) {
      const b = this.buttons.get(action);
      if (!b) continue;
      this.icon(b, action);
      const text = word(labels, action);
      b.title = text;
      b.setAttribute("aria-label", text);
      b.disabled = taken || !(action === "prev-mark" ? before : after);
    }
  }

  private showPace(pace: number): void {
    this.paceOut.textContent = `${clampPace(pace)} s`;
  }

  private startTimer(pace: number): void {
    if (this.timer && this.timerPace === pace) return;
    this.stopTimer();
    this.timerPace = pace;
    this.timer = this.win.setInterval(() => {
      // playing waits at a quiz until the class answered it (or its move was shown)
      if (this.lesson?.playing) {
        if (!this.lesson.quiz?.waiting) this.send({ type: "lesson", action: "forward" });
      } else this.stopTimer();
    }, pace * 1000);
  }

  stopTimer(): void {
    if (this.timer) this.win.clearInterval(this.timer);
    this.timer = 0;
    this.timerPace = 0;
  }

  /** Whether the play timer is running (for tests). */
  get timerRunning(): boolean {
    return this.timer !== 0;
  }
}
