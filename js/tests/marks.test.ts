import { afterEach, describe, expect, it, vi } from "vitest";
import { Harness, LABELS, key, pointer, startState } from "./helpers";
import { MARK_COLORS, gestureColor, gestureMark, markShape, type Box } from "../marks";
import type { GameState, LessonState, RecordState } from "../types";

const h = new Harness();
const last = (): unknown => h.model.sent[h.model.sent.length - 1];

/** Piles in a row, 100 px apart, each 60 x 84 px; the card "5H" shows its top 20 px in t2. */
const BOXES: Record<string, Box> = {
  t1: { left: 0, top: 100, width: 60, height: 84 },
  t2: { left: 100, top: 100, width: 60, height: 84 },
  t3: { left: 200, top: 100, width: 60, height: 84 },
  "5H": { left: 100, top: 80, width: 60, height: 20 },
};
const place = (name: string): Box | null => BOXES[name] ?? null;

function record(over: Partial<RecordState> = {}): RecordState {
  return { steps: 1, title: "", note: "", note_lang: "en", illegal: false, quiz: null, can_quiz: true, marks: [], ...over };
}

function lesson(over: Partial<LessonState> = {}): LessonState {
  return {
    title: "T", step: 1, steps: 3, caption: "C", note: null, playing: false, pace: 2, taken_over: false,
    highlight: null, marks: [], quiz: null, ...over,
  };
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("mark geometry", () => {
  it("runs an arrow from the centre of one pile's top card to the centre of the other's, head on the target", () => {
    const shape = markShape({ arrow: ["t1", "t3"] }, place, 60);
    expect(shape?.kind).toBe("arrow");
    if (shape?.kind !== "arrow") return;
    expect([shape.x1, shape.y1]).toEqual([30, 142]);
    expect(shape.head.split(" ")[0]).toBe("230,142"); // the tip stands on the target's centre
    expect(shape.x2).toBeLessThan(230); // the line stops at the head's base
    expect(shape.x2).toBeGreaterThan(200);
    expect(shape.width).toBeCloseTo(5.4); // a translucent line, thin beside a card's corner
    expect(shape.color).toBe(MARK_COLORS.green);
    expect(shape.name).toBe("t1>t3");
  });

  it("scales with the card width and takes the mark's colour", () => {
    const small = markShape({ arrow: ["t1", "t2"], color: "red" }, place, 40);
    const large = markShape({ arrow: ["t1", "t2"], color: "red" }, place, 120);
    expect(small?.width).toBeLessThan(large?.width ?? 0);
    expect(small?.color).toBe(MARK_COLORS.red);
  });

  it("rings a pile or the seen part of a card", () => {
    const ring = markShape({ circle: "t2", color: "blue" }, place, 60);
    expect(ring).toMatchObject({ kind: "circle", cx: 130, cy: 142, color: MARK_COLORS.blue, name: "t2" });
    const card = markShape({ circle: "5H" }, place, 60);
    expect(card).toMatchObject({ kind: "circle", cx: 130, cy: 90 });
    if (card?.kind === "circle") expect(card.r).toBeLessThanOrEqual(10);
  });

  it("draws nothing for a place that is not on the board (a card not face up)", () => {
    expect(markShape({ circle: "KS" }, place, 60)).toBeNull();
    expect(markShape({ arrow: ["t1", "t9"] }, place, 60)).toBeNull();
  });
});

describe("mark gestures", () => {
  it("makes an arrow between two piles, a circle on one card or pile, nothing off the table", () => {
    expect(gestureMark({ pile: "t1", card: "5H" }, { pile: "t3", card: null })).toEqual({ arrow: ["t1", "t3"] });
    expect(gestureMark({ pile: "t2", card: "5H" }, { pile: "t2", card: "5H" })).toEqual({ circle: "5H" });
    expect(gestureMark({ pile: "t2", card: "5H" }, { pile: "t2", card: "4S" })).toEqual({ circle: "t2" });
    expect(gestureMark({ pile: "fH", card: null }, { pile: "fH", card: null }, "red")).toEqual({
      circle: "fH",
      color: "red",
    });
    expect(gestureMark({ pile: "t1", card: null }, null)).toBeNull();
  });

  it("colours by the keys held: none green, Alt red, Ctrl blue, both yellow", () => {
    expect([gestureColor(false, false), gestureColor(true, false), gestureColor(false, true), gestureColor(true, true)]).toEqual(
      ["green", "red", "blue", "yellow"],
    );
  });

  it("while recording, a right-drag sends a mark intent; a Shift-drag too; the C key clears the marks", () => {
    const root = h.mount(startState({ recording: record() }));
    const from = h.q('[data-pile="t1"] .pl-card[data-face="up"]');
    const to = h.q('[data-pile="t3"]');
    pointer(from, "pointerdown", { button: 2 });
    pointer(to, "pointerup", { button: 2 });
    expect(last()).toMatchObject({ type: "record", action: "mark", mark: { arrow: ["t1", "t3"] } });
    pointer(from, "pointerdown", { button: 0, shiftKey: true, altKey: true });
    pointer(from, "pointerup");
    expect(last()).toMatchObject({ type: "record", action: "mark", mark: { circle: "5H", color: "red" } });
    const sent = h.model.sent.length;
    key(root, "c");
    expect(h.model.sent.length).toBe(sent + 1);
    expect(last()).toMatchObject({ type: "record", action: "clear" });
  });

  it("draws nothing and sends nothing when no lesson is recorded", () => {
    const root = h.mount(startState());
    pointer(h.q('[data-pile="t1"] .pl-card[data-face="up"]'), "pointerdown", { button: 2 });
    pointer(h.q('[data-pile="t3"]'), "pointerup", { button: 2 });
    key(root, "c");
    expect(h.model.sent).toEqual([]);
  });
});

describe("marks on the board", () => {
  it("draws the lesson step's marks in an overlay hidden from readers, and the recorded step's while recording", () => {
    // jsdom lays nothing out: columns 100 px apart
    vi.spyOn(HTMLElement.prototype, "getBoundingClientRect").mockImplementation(function (this: HTMLElement) {
      const pile = this.dataset?.pile ?? "";
      const i = pile.startsWith("t") ? Number(pile.slice(1)) : 0;
      return new DOMRect(i * 100, pile ? 100 : 0, 60, 84);
    });
    h.mount(startState({ lesson: lesson({ marks: [{ arrow: ["t1", "t2"] }, { circle: "t3", color: "yellow" }] }) }));
    const overlay = h.q(".pl-table > svg.pl-marks");
    expect(overlay.getAttribute("aria-hidden")).toBe("true");
    expect(overlay.querySelectorAll("[data-mark]")).toHaveLength(2);
    expect(overlay.querySelector('[data-mark="t1>t2"] polygon')).not.toBeNull();
    expect(overlay.querySelector('[data-mark="t3"] circle')?.getAttribute("stroke")).toBe(MARK_COLORS.yellow);
    h.model.set("state", startState({ version: 2, lesson: lesson({ taken_over: true, marks: [{ circle: "t1" }] }) }));
    expect(overlay.querySelectorAll("[data-mark]")).toHaveLength(0);
    h.model.set("state", startState({ version: 3, recording: record({ marks: [{ circle: "t1" }] }) }));
    expect(overlay.querySelectorAll("[data-mark]")).toHaveLength(1);
  });
});

describe("recording", () => {
  it("shows the record box: the note is sent as typed, the quiz choice and the buttons send intents", () => {
    vi.useFakeTimers();
    h.mount(startState({ recording: record({ note: "Old" }) }));
    const box = h.q(".pl-record");
    expect(box.hidden).toBe(false);
    expect(h.q(".pl-record-title").textContent).toBe("Recording · 1 step");
    const note = h.q<HTMLTextAreaElement>(".pl-record-note");
    expect(note.value).toBe("Old");
    expect(note.maxLength).toBe(500);
    note.value = "Red on black";
    note.dispatchEvent(new Event("input", { bubbles: true }));
    expect(h.model.sent).toEqual([]);
    vi.advanceTimersByTime(400);
    expect(last()).toMatchObject({ type: "record", action: "note", text: "Red on black" });
    const quiz = h.q<HTMLSelectElement>(".pl-record-quiz select");
    quiz.value = "winnable";
    quiz.dispatchEvent(new Event("change", { bubbles: true }));
    expect(last()).toMatchObject({ type: "record", action: "quiz", quiz: "winnable" });
    expect(h.q<HTMLButtonElement>(".pl-record-clear").disabled).toBe(true);
    h.q(".pl-record-stop").click();
    expect(last()).toMatchObject({ type: "record", action: "stop" });
  });

  it("sends a note still being typed before the next move, so it stays with its step", () => {
    vi.useFakeTimers();
    h.mount(startState({ recording: record() }));
    const note = h.q<HTMLTextAreaElement>(".pl-record-note");
    note.value = "Watch the 7";
    note.dispatchEvent(new Event("input", { bubbles: true }));
    h.q('[data-pile="stock"]').dispatchEvent(new PointerEvent("pointerdown", { bubbles: true, button: 0, pointerId: 1 }));
    window.dispatchEvent(new PointerEvent("pointerup", { bubbles: true, button: 0, pointerId: 1 }));
    expect(h.model.sent.map((i) => i.type)).toEqual(["record", "draw"]);
    expect(h.model.sent[0]).toMatchObject({ action: "note", text: "Watch the 7" });
    vi.advanceTimersByTime(1000);
    expect(h.model.sent).toHaveLength(2);
  });

  it("keeps the note box empty and the quiz off before the first step, and for an illegal step", () => {
    h.mount(startState({ recording: record({ steps: 0, can_quiz: false }) }));
    expect(h.q<HTMLTextAreaElement>(".pl-record-note").disabled).toBe(true);
    expect(h.q<HTMLTextAreaElement>(".pl-record-note").placeholder).toBe(LABELS["record-empty"]);
    expect(h.q<HTMLSelectElement>(".pl-record-quiz select").disabled).toBe(true);
  });

  it("offers Record lesson and, once the game is over, Review game in the More menu", () => {
    const state: GameState = startState({ status: "stuck", review: { offered: true, busy: false } });
    h.mount(state);
    h.q('[data-action="more"]').click();
    h.q('.pl-menu-item[data-action="review"]').click();
    expect(last()).toMatchObject({ type: "review" });
    h.q('[data-action="more"]').click();
    h.q('.pl-menu-item[data-action="record"]').click();
    expect(last()).toMatchObject({ type: "record", action: "start" });
    h.model.set("state", { ...state, version: 2, review: { offered: false, busy: true } });
    const busy = h.q<HTMLButtonElement>('.pl-banner [data-action="review"]');
    expect(busy.disabled).toBe(true);
    expect(busy.textContent).toBe(LABELS.reviewing);
  });

  it("shows Stop while a player plays from Python, and Stop asks Python to end it", () => {
    const state: GameState = startState({ autoplay: { running: true, player: "Greedy" } });
    h.mount(state);
    const stop = h.q<HTMLButtonElement>('[data-action="stop-autoplay"]');
    expect(stop.hidden).toBe(false);
    expect(stop.getAttribute("aria-label")).toBe(LABELS["stop-autoplay"]);
    expect(h.q(".pl-playing").textContent).toBe("Greedy is playing");
    stop.click();
    expect(last()).toMatchObject({ type: "autoplay", action: "stop" });
    h.model.set("state", { ...state, version: 2, autoplay: { running: false, player: null } });
    expect(h.q<HTMLButtonElement>('[data-action="stop-autoplay"]').hidden).toBe(true);
    expect(h.q<HTMLElement>(".pl-playing").hidden).toBe(true);
  });

  it("shows the quiz score beside the step counter", () => {
    const quiz = { waiting: true, tries_left: 2, right: 1, asked: 2, score: "Right answers: 1 of 2" };
    h.mount(startState({ lesson: lesson({ quiz }) }));
    expect(h.q(".pl-lesson-score").textContent).toBe("Right answers: 1 of 2");
    expect(h.q(".pl-lesson").classList.contains("pl-quiz")).toBe(true);
  });
});
