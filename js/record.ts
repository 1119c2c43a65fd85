/** Recording a lesson: a box above the table (in place of the lesson's) with "Recording · n steps", the lesson's
 * title (a text field the teacher fills in, sent when it changes), the note of the
 * step just recorded (a plain text area, sent as the teacher types), the quiz choice of that step, "Clear marks",
 * a line of help and "Stop recording". The recording itself is Python's (`LessonRecorder`); this only sends intents. */

import { button, node } from "./dom";
import type { GameState, IntentBody, Labels, RecordState } from "./types";
import { countPhrase, word } from "./words";

type Send = (body: IntentBody) => void;

/** The longest note (Python checks the same bound). */
export const MAX_NOTE = 500;
/** The longest title (Python checks the same bound). */
export const MAX_TITLE = 120;
const NOTE_DELAY_MS = 350;

export class RecordView {
  readonly el: HTMLElement;
  private readonly title: HTMLElement;
  private readonly stop: HTMLButtonElement;
  private readonly name: HTMLInputElement;
  private readonly note: HTMLTextAreaElement;
  private readonly quiz: HTMLSelectElement;
  private readonly quizName: HTMLElement;
  private readonly clear: HTMLButtonElement;
  private readonly help: HTMLElement;
  private record: RecordState | null = null;
  /** The step the note box shows; its text is replaced when another step is recorded. */
  private noteStep = -1;
  private noteTimer = 0;
  private readonly win: Window;

  constructor(
    private readonly doc: Document,
    private readonly send: Send,
    signal: AbortSignal,
  ) {
    this.win = doc.defaultView ?? window;
    this.el = this.node("section", "pl-record");
    this.el.hidden = true;
    const head = this.node("div", "pl-record-head");
    this.title = this.node("h2", "pl-record-title");
    this.stop = this.button("stop", "pl-btn pl-btn-primary pl-record-stop");
    head.append(this.title, this.stop);
    this.name = doc.createElement("input");
    this.name.type = "text";
    this.name.className = "pl-record-name";
    this.name.maxLength = MAX_TITLE;
    this.note = doc.createElement("textarea");
    this.note.className = "pl-record-note";
    this.note.rows = 2;
    this.note.maxLength = MAX_NOTE;
    const row = this.node("div", "pl-record-row");
    const quizBox = this.node("label", "pl-record-quiz");
    this.quizName = this.node("span", "pl-record-quiz-name");
    this.quiz = doc.createElement("select");
    for (const value of ["", "move", "winnable"]) {
      const option = doc.createElement("option");
      option.value = value;
      this.quiz.append(option);
    }
    quizBox.append(this.quizName, this.quiz);
    this.clear = this.button("clear", "pl-btn pl-record-clear");
    this.help = this.node("p", "pl-record-help");
    row.append(quizBox, this.clear);
    this.el.append(head, this.name, this.note, row, this.help);
    this.el.addEventListener(
      "click",
      (e) => {
        const b = e.target instanceof Element ? e.target.closest<HTMLButtonElement>("[data-record]") : null;
        if (!b || b.disabled) return;
        if (b.dataset.record === "stop") {
          this.flushNote();
          this.flushTitle();
        }
        this.send({ type: "record", action: b.dataset.record as "stop" | "clear" });
      },
      { signal },
    );
    this.note.addEventListener("input", () => this.noteSoon(), { signal });
    this.note.addEventListener("change", () => this.flushNote(), { signal });
    this.quiz.addEventListener(
      "change",
      () => {
        const value = this.quiz.value;
        this.send({ type: "record", action: "quiz", quiz: value === "move" || value === "winnable" ? value : null });
      },
      { signal },
    );
    this.name.addEventListener("change", () => this.flushTitle(), { signal });
    // keys typed in the note and the title are theirs: the board's shortcuts (and JupyterLab's) stay out of them
    this.note.addEventListener("keydown", (e) => e.stopPropagation(), { signal });
    this.name.addEventListener("keydown", (e) => e.stopPropagation(), { signal });
    signal.addEventListener("abort", () => this.win.clearTimeout(this.noteTimer), { once: true });
  }

  private node(tag: string, className: string): HTMLElement {
    return node(this.doc, tag, className);
  }

  private button(action: string, className: string): HTMLButtonElement {
    return button(this.doc, className, "record", action);
  }

  get shown(): boolean {
    return !!this.record;
  }

  private noteSoon(): void {
    this.win.clearTimeout(this.noteTimer);
    this.noteTimer = this.win.setTimeout(() => this.flushNote(), NOTE_DELAY_MS);
  }

  /** Sends the note as typed, when it differs from the step's. */
  flushNote(): void {
    this.win.clearTimeout(this.noteTimer);
    this.noteTimer = 0;
    const record = this.record;
    if (!record || !record.steps || this.noteStep !== record.steps) return;
    const text = this.note.value.slice(0, MAX_NOTE);
    if (text.trim() === (record.note ?? "").trim()) return;
    this.send({ type: "record", action: "note", text });
  }

  /** Sends the title as typed, when it differs from the recording's. */
  flushTitle(): void {
    const record = this.record;
    const text = this.name.value.slice(0, MAX_TITLE).trim();
    if (!record || text === (record.title ?? "").trim()) return;
    this.send({ type: "record", action: "title", text });
  }

  update(state: GameState, labels: Labels): void {
    const record = state.recording && typeof state.recording === "object" ? state.recording : null;
    const steps = record ? Number(record.steps) || 0 : 0;
    // a note still being typed was sent before the intent that recorded another step (Board.send)
    if (this.noteStep !== steps) {
      this.win.clearTimeout(this.noteTimer);
      this.noteTimer = 0;
    }
    this.record = record;
    this.el.hidden = !record;
    if (!record) {
      this.noteStep = -1;
      return;
    }
    this.el.setAttribute("aria-label", word(labels, "record"));
    this.title.textContent = countPhrase(labels, "recording", steps, "steps", {}, state.lang);
    this.stop.textContent = word(labels, "record-stop");
    if (this.doc.activeElement !== this.name) this.name.value = record.title ?? "";
    this.name.placeholder = word(labels, "record-title");
    this.name.setAttribute("aria-label", word(labels, "record-title"));
    const typing = this.doc.activeElement === this.note || this.noteTimer !== 0;
    if (this.noteStep !== steps || !typing) this.note.value = record.note ?? "";
    this.noteStep = steps;
    this.note.disabled = steps === 0;
    this.note.lang = record.note_lang ?? "";
    const name = steps ? word(labels, "record-note") : word(labels, "record-empty");
    this.note.placeholder = name;
    this.note.setAttribute("aria-label", name);
    this.quizName.textContent = word(labels, "quiz");
    const names = ["quiz-off", "quiz-move", "quiz-winnable"];
    [...this.quiz.options].forEach((option, i) => (option.textContent = word(labels, names[i])));
    this.quiz.value = record.quiz ?? "";
    this.quiz.disabled = !record.can_quiz;
    this.clear.textContent = word(labels, "clear-marks");
    this.clear.disabled = !record.marks?.length;
    this.help.textContent = word(labels, "record-help");
  }
}
