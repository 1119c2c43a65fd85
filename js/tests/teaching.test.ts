import { afterEach, describe, expect, it, vi } from "vitest";
import { Harness, LABELS, key, pointer, startState, tap } from "./helpers";
import type { GameState, Labels, LessonState, RecordsState } from "../types";
import { word } from "../words";

const h = new Harness();
const mount = (state?: GameState, labels?: Labels): HTMLElement => h.mount(state, labels);
const q = <T extends Element = HTMLElement>(sel: string): T => h.q<T>(sel);

const last = (): unknown => h.model.sent[h.model.sent.length - 1];

function lesson(over: Partial<LessonState> = {}): LessonState {
  return {
    title: "Draw 3: only the top card plays",
    step: 2,
    steps: 9,
    caption: "Move the 5♥ onto the 6♠.",
    note: "Red on black, one rank lower.",
    playing: false,
    pace: 2,
    taken_over: false,
    highlight: { cards: ["5H"], to: "t2" },
    marks: [],
    quiz: null,
    ...over,
  };
}

function records(over: Partial<RecordsState> = {}): RecordsState {
  return {
    enabled: true, error: null, notice: null, rules_key: "standard", draw: 1, scoring: "standard", played: 12, won: 5, win_rate: 0.4167,
    best_score: 645, fewest_moves: 98, fastest_win: 201.5, current_streak: 2, longest_streak: 3, new: [], ...over,
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("lesson", () => {
  it("shows the caption box above the board with step, caption, note and highlight", () => {
    mount(startState({ lesson: lesson() }));
    const box = q(".pl-lesson");
    expect(box.hidden).toBe(false);
    expect(box.nextElementSibling).toBe(q(".pl-table"));
    expect(q(".pl-lesson-step").textContent).toBe("Step 2 of 9");
    expect(q(".pl-lesson-caption").textContent).toBe("Move the 5♥ onto the 6♠.");
    expect(q(".pl-lesson-note").textContent).toBe("Red on black, one rank lower.");
    expect(q('[data-card="5H"]').classList.contains("pl-lesson-mark")).toBe(true);
    expect(q('[data-pile="t2"]').classList.contains("pl-lesson-mark")).toBe(true);
    expect(q('[data-lesson="forward"]').getAttribute("aria-label")).toBe("Step forward");
  });

  it("is hidden without a lesson", () => {
    mount();
    expect(q(".pl-lesson").hidden).toBe(true);
  });

  it("sends each step control as a lesson intent", () => {
    mount(startState({ lesson: lesson() }));
    for (const action of ["first", "back", "forward", "last", "play", "close"]) {
      q<HTMLButtonElement>(`.pl-lesson [data-lesson="${action}"]`).click();
      expect(last()).toMatchObject({ type: "lesson", action, version: 1 });
    }
    const pace = q<HTMLInputElement>(".pl-pace-input");
    expect(pace.value).toBe("2");
    pace.value = "3.5";
    pace.dispatchEvent(new Event("change"));
    expect(last()).toMatchObject({ type: "lesson", action: "pace", pace: 3.5 });
  });

  it("disables back at the start and forward at the end", () => {
    mount(startState({ lesson: lesson({ step: 0 }) }));
    expect(q<HTMLButtonElement>('[data-lesson="back"]').disabled).toBe(true);
    expect(q<HTMLButtonElement>('[data-lesson="forward"]').disabled).toBe(false);
    h.model.set("state", startState({ version: 2, lesson: lesson({ step: 9 }) }));
    expect(q<HTMLButtonElement>('[data-lesson="back"]').disabled).toBe(false);
    expect(q<HTMLButtonElement>('[data-lesson="forward"]').disabled).toBe(true);
  });

  it("offers Back to the lesson when the teacher took over", () => {
    mount(startState({ lesson: lesson({ taken_over: true }) }));
    const resume = q<HTMLButtonElement>(".pl-resume");
    expect(resume.hidden).toBe(false);
    expect(resume.textContent).toBe("Back to the lesson");
    expect(q<HTMLButtonElement>('[data-lesson="forward"]').disabled).toBe(true);
    resume.click();
    expect(last()).toMatchObject({ type: "lesson", action: "resume" });
    expect(h.host.querySelector(".pl-lesson-mark")).toBeNull();
  });

  it("while playing sends forward every pace seconds, with the current version", () => {
    vi.useFakeTimers();
    mount(startState({ lesson: lesson({ playing: true, pace: 1.5 }) }));
    expect(q('[data-lesson="play"]').getAttribute("aria-label")).toBe("Pause");
    vi.advanceTimersByTime(1400);
    expect(h.model.sent).toEqual([]);
    vi.advanceTimersByTime(200);
    expect(h.model.sent).toEqual([{ type: "lesson", action: "forward", version: 1, id: 1 }]);
    h.model.set("state", startState({ version: 2, lesson: lesson({ step: 3, playing: true, pace: 1.5 }) }));
    vi.advanceTimersByTime(1500);
    expect(h.model.sent.map((m) => m.version)).toEqual([1, 2]);
  });

  it("stops the timer on pause, on a state that is not playing, and on cleanup", () => {
    vi.useFakeTimers();
    mount(startState({ lesson: lesson({ playing: true }) }));
    q<HTMLButtonElement>('[data-lesson="play"]').click();
    expect(last()).toMatchObject({ type: "lesson", action: "pause" });
    vi.advanceTimersByTime(10000);
    expect(h.model.sent).toHaveLength(1);

    h.model.set("state", startState({ version: 2, lesson: lesson({ playing: true }) }));
    vi.advanceTimersByTime(2000);
    expect(h.model.sent).toHaveLength(2);
    h.model.set("state", startState({ version: 3, lesson: lesson({ playing: false }) }));
    vi.advanceTimersByTime(10000);
    expect(h.model.sent).toHaveLength(2);

    h.model.set("state", startState({ version: 4, lesson: lesson({ playing: true }) }));
    h.cleanup?.();
    vi.advanceTimersByTime(10000);
    expect(h.model.sent).toHaveLength(2);
  });

  it("restarts the timer when the pace changes", () => {
    vi.useFakeTimers();
    mount(startState({ lesson: lesson({ playing: true, pace: 5 }) }));
    vi.advanceTimersByTime(4000);
    h.model.set("state", startState({ version: 2, lesson: lesson({ playing: true, pace: 0.5 }) }));
    vi.advanceTimersByTime(500);
    expect(h.model.sent).toEqual([{ type: "lesson", action: "forward", version: 2, id: 1 }]);
  });

  it("steps with . and , (or Shift+arrows), Shift+Home/End and p", () => {
    const root = mount(startState({ lesson: lesson() }));
    for (const [k, init] of [
      [".", {}],
      [",", {}],
      ["ArrowRight", { shiftKey: true }],
      ["ArrowLeft", { shiftKey: true }],
      ["Home", { shiftKey: true }],
      ["End", { shiftKey: true }],
      ["p", {}],
    ] as const) {
      key(root, k, init);
    }
    expect(h.model.sent.map((m) => (m as { action?: string }).action)).toEqual([
      "forward", "back", "forward", "back", "first", "last", "play",
    ]);
    key(root, "ArrowRight");
    expect(h.model.sent).toHaveLength(7);
  });

  it("announces the new caption when a step arrives", () => {
    mount(startState({ lesson: lesson() }));
    h.model.set("state", startState({ version: 2, lesson: lesson({ step: 3, caption: "Draw from the stock." }) }));
    expect(q(".pl-lesson-caption").textContent).toBe("Draw from the stock.");
    expect(q("[aria-live=polite]").textContent).toBe("Draw from the stock.");
  });
});

describe("show moves", () => {
  it("toggles from the toolbar", () => {
    mount();
    const b = q<HTMLButtonElement>('.pl-bar [data-action="show-moves"]');
    expect(b.getAttribute("aria-pressed")).toBe("false");
    b.click();
    expect(last()).toMatchObject({ type: "show_moves", on: true });
    h.model.set("state", startState({ version: 2, show_moves: true }));
    expect(b.getAttribute("aria-pressed")).toBe("true");
    b.click();
    expect(last()).toMatchObject({ type: "show_moves", on: false });
  });

  it("outlines exactly the cards in targets, and the piles a picked-up card may go to", () => {
    mount(startState({ show_moves: true }));
    const outlined = [...h.host.querySelectorAll<HTMLElement>(".pl-card.pl-can-move")].map((c) => c.dataset.card).sort();
    expect(outlined).toEqual(["5H", "AD"]);
    // drawing is a move too: the stock is marked
    expect(q('[data-pile="stock"]').classList.contains("pl-can-move")).toBe(true);
    tap(q('[data-card="5H"]'));
    expect([...h.host.querySelectorAll<HTMLElement>(".pl-can-drop")].map((p) => p.dataset.pile)).toEqual(["t2"]);
    tap(q('[data-card="5H"]'));
    expect(h.host.querySelectorAll(".pl-can-drop")).toHaveLength(0);
  });

  it("marks the stock when drawing is the only move", () => {
    mount(startState({ show_moves: true, targets: {} }));
    expect(h.host.querySelectorAll(".pl-card.pl-can-move")).toHaveLength(0);
    expect(q('[data-pile="stock"]').classList.contains("pl-can-move")).toBe(true);
    h.model.set("state", startState({ version: 2, show_moves: true, targets: {}, can_draw: false, stock: [] }));
    expect(q('[data-pile="stock"]').classList.contains("pl-can-move")).toBe(false);
  });

  it("outlines nothing when off", () => {
    mount();
    tap(q('[data-card="5H"]'));
    expect(h.host.querySelectorAll(".pl-can-move, .pl-can-drop")).toHaveLength(0);
  });

  it("outlines the drop piles while dragging", () => {
    mount(startState({ show_moves: true }));
    const card = q('[data-card="AD"]');
    pointer(card, "pointerdown", { clientX: 10, clientY: 10 });
    pointer(window as unknown as Element, "pointermove", { clientX: 40, clientY: 40 });
    expect(card.classList.contains("pl-dragging")).toBe(true);
    expect([...h.host.querySelectorAll<HTMLElement>(".pl-can-drop")].map((p) => p.dataset.pile)).toEqual(["fD"]);
    pointer(window as unknown as Element, "pointercancel", { clientX: 40, clientY: 40 });
    expect(h.host.querySelectorAll(".pl-can-drop")).toHaveLength(0);
  });
});

describe("reveal", () => {
  function revealed(): GameState {
    const s = startState({ reveal: true });
    s.tableau[6].down = ["7C", "8D", "2S", "JH", "4D", "9S"];
    s.stock = ["3C", ...s.stock.slice(1).map(() => null)];
    return s;
  }

  it("draws face-down cards face up with a marker", () => {
    mount(revealed());
    const card = q('[data-card="7C"]');
    expect(card.dataset.revealed).toBe("true");
    expect(card.classList.contains("pl-revealed")).toBe(true);
    expect(card.querySelector(".pl-eye svg")).toBeTruthy();
    expect(card.querySelector(".pl-rank")?.textContent).toBe("7");
    expect(card.getAttribute("aria-label")).toBe(`7 of clubs (${LABELS.revealed})`);
    expect(q('[data-pile="stock"] [data-card="3C"]').dataset.revealed).toBe("true");
    expect(q('[data-card="QH"]').dataset.revealed).toBeUndefined();
    expect(h.host.querySelectorAll('[data-pile="t7"] [data-revealed]')).toHaveLength(6);
  });

  it("cannot drag, select or move a revealed card", () => {
    mount(revealed());
    const card = q('[data-card="JH"]');
    pointer(card, "pointerdown", { clientX: 10, clientY: 10 });
    pointer(window as unknown as Element, "pointermove", { clientX: 60, clientY: 60 });
    pointer(window as unknown as Element, "pointerup", { clientX: 60, clientY: 60 });
    expect(card.classList.contains("pl-dragging")).toBe(false);
    tap(card);
    expect(h.host.querySelector(".pl-selected")).toBeNull();
    expect(card.classList.contains("pl-movable")).toBe(false);
    expect(h.model.sent).toEqual([]);
  });
});

describe("toolbar menus and panels", () => {
  const withLanguages = (over: Partial<GameState> = {}): GameState =>
    startState({
      languages: [
        ["en", "English"],
        ["nl", "Nederlands"],
        ["sv", "Svenska"],
      ],
      rules_text: "Standard rules.\nDraw 1, unlimited passes.\nCards may come back from the foundations.",
      ...over,
    });

  it("switches language from the More menu, the current one marked", () => {
    mount(withLanguages());
    q<HTMLButtonElement>('[data-action="more"]').click();
    expect(q(".pl-more-menu").hidden).toBe(false);
    const items = [...h.host.querySelectorAll<HTMLElement>('.pl-more-menu [data-action="lang"]')];
    expect(items.map((i) => i.textContent)).toEqual(["English", "Nederlands", "Svenska"]);
    expect(items.map((i) => i.getAttribute("aria-checked"))).toEqual(["true", "false", "false"]);
    items[1].click();
    expect(last()).toMatchObject({ type: "lang", lang: "nl", version: 1 });
    expect(q(".pl-more-menu").hidden).toBe(true);
    h.model.set("labels", { ...LABELS, rules: "Regels" });
    h.model.set("state", withLanguages({ version: 2, lang: "nl" }));
    expect(q('.pl-more-menu [data-lang="nl"]').getAttribute("aria-checked")).toBe("true");
    expect(q('.pl-more-menu [data-action="rules"]').textContent).toBe("Regels");
  });

  it("the More menu works from the keyboard", () => {
    mount(withLanguages());
    const more = q<HTMLButtonElement>('[data-action="more"]');
    expect(more.getAttribute("aria-label")).toBe("More");
    more.click();
    const first = q('.pl-more-menu [data-action="rules"]');
    expect(document.activeElement).toBe(first);
    key(first, "ArrowDown");
    expect(document.activeElement).toBe(q('.pl-more-menu [data-action="stats"]'));
    key(document.activeElement as Element, "Escape");
    expect(q(".pl-more-menu").hidden).toBe(true);
    expect(document.activeElement).toBe(more);
  });

  it("switches the winnability indicator from the More menu", () => {
    mount(withLanguages({ indicator: { enabled: false, verdict: null, error: null } }));
    q<HTMLButtonElement>('[data-action="more"]').click();
    const item = q<HTMLButtonElement>('.pl-more-menu [data-action="indicator"]');
    expect(item.getAttribute("aria-checked")).toBe("false");
    item.click();
    expect(last()).toMatchObject({ type: "indicator", on: true });
  });

  it("opens the rules panel and closes it with Escape or a click outside", () => {
    mount(withLanguages());
    q<HTMLButtonElement>('[data-action="more"]').click();
    q<HTMLButtonElement>('.pl-more-menu [data-action="rules"]').click();
    const panel = q(".pl-panel-rules");
    expect(panel.hidden).toBe(false);
    expect([...panel.querySelectorAll(".pl-rules-line")].map((p) => p.textContent)).toEqual([
      "Standard rules.",
      "Draw 1, unlimited passes.",
      "Cards may come back from the foundations.",
    ]);
    expect(panel.querySelector(".pl-panel-title")?.textContent).toBe("Rules");
    key(panel, "Escape");
    expect(panel.hidden).toBe(true);
    q<HTMLButtonElement>('[data-action="more"]').click();
    q<HTMLButtonElement>('.pl-more-menu [data-action="rules"]').click();
    expect(panel.hidden).toBe(false);
    pointer(q('[data-pile="t3"]'), "pointerdown");
    expect(panel.hidden).toBe(true);
  });

  it("asks for statistics and shows the reply as a table", () => {
    mount(withLanguages());
    q<HTMLButtonElement>('[data-action="more"]').click();
    q<HTMLButtonElement>('.pl-more-menu [data-action="stats"]').click();
    expect(last()).toMatchObject({ type: "stats", version: 1 });
    const panel = q(".pl-panel-stats");
    expect(panel.hidden).toBe(false);
    expect(panel.getAttribute("aria-busy")).toBe("true");
    const row = {
      rules_key: "standard", draw: 1, played: 12, won: 5, win_rate: 0.4167, best_score: 645, fewest_moves: 98,
      fastest_win: 201.5, current_streak: 1, longest_streak: 3,
    };
    const custom = { ...row, rules_key: "custom-1", draw: 3, win_rate: 0, best_score: null, fastest_win: null };
    h.model.emit("msg:custom", { type: "stats", id: 1, rows: [row, custom] });
    const heads = [...panel.querySelectorAll("thead th")].map((t) => t.textContent);
    expect(heads).toEqual([
      "Rules", "Draw", "Played", "Won", "Win rate", "Best score", "Fewest moves", "Fastest win", "Streak",
      "Longest streak",
    ]);
    const cells = [...panel.querySelectorAll("tbody tr")].map((tr) => [...tr.children].map((c) => c.textContent));
    expect(cells).toEqual([
      ["Standard", "Draw 1", "12", "5", "42%", "645", "98", "03:21", "1", "3"],
      ["custom-1", "Draw 3", "12", "5", "0%", "\u2013", "98", "\u2013", "1", "3"],
    ]);
  });

  it("shows an empty-state line when there are no statistics", () => {
    mount(withLanguages());
    q<HTMLButtonElement>('[data-action="more"]').click();
    q<HTMLButtonElement>('.pl-more-menu [data-action="stats"]').click();
    h.model.emit("msg:custom", { type: "stats", id: 1, rows: [] });
    expect(q(".pl-panel-stats .pl-empty").textContent).toBe("No games yet");
    expect(h.host.querySelector(".pl-panel-stats table")).toBeNull();
  });
});

describe("messages", () => {
  it("shows a narration in the message line and announces it once per id", () => {
    mount();
    const message = { id: 1, kind: "narration" as const, text: "The teacher draws three cards." };
    h.model.set("state", startState({ version: 1, message }));
    const line = q(".pl-say");
    expect(line.hidden).toBe(false);
    expect(line.textContent).toBe("The teacher draws three cards.");
    expect(line.dataset.kind).toBe("narration");
    expect(q("[aria-live=polite]").textContent).toBe("The teacher draws three cards.");
    q("[aria-live=polite]").textContent = "";
    h.model.set("state", startState({ version: 2, message }));
    expect(q("[aria-live=polite]").textContent).toBe("");
    h.model.set("state", startState({ version: 3, message: { ...message, id: 2 } }));
    expect(q("[aria-live=polite]").textContent).toBe("The teacher draws three cards.");
  });

  it("shows a narration in the lesson's caption box when a lesson is shown", () => {
    mount(startState({ lesson: lesson() }));
    h.model.set("state", startState({ version: 2, lesson: lesson(), message: { id: 4, kind: "narration", text: "Look!" } }));
    expect(q(".pl-say").hidden).toBe(true);
    expect(q(".pl-lesson-narration").textContent).toBe("Look!");
  });

  it("keeps no room in another lesson's caption box for the last lesson's words", () => {
    // a quiz's rejection stays under the caption until the next action; the next lesson is measured without it
    mount(startState({ lesson: lesson() }));
    const rejection = { id: 5, kind: "info" as const, text: "Not allowed: the waste can only be turned over when the stock is empty." };
    h.model.set("state", startState({ version: 2, lesson: lesson(), message: rejection }));
    const narration = q(".pl-lesson-narration");
    expect(narration.textContent).toBe(rejection.text);
    const box = q(".pl-lesson-text");
    // jsdom lays nothing out: the box is as tall as its words, 20 px a line, the rejection two lines
    Object.defineProperty(box, "scrollHeight", { get: () => 20 + (narration.textContent ? 40 : 0) });
    h.model.set("state", startState({ version: 3, lesson: lesson({ title: "Review", steps: 30, step: 0 }), message: rejection }));
    expect(narration.textContent).toBe("");
    expect(box.style.minHeight).toBe("20px");
  });

  it("shows an info message in the message line", () => {
    mount();
    h.model.set("state", startState({ version: 2, message: { id: 7, kind: "info", text: "Records are stored." } }));
    const line = q(".pl-say");
    expect(line.textContent).toBe("Records are stored.");
    expect(line.dataset.kind).toBe("info");
    expect(q("[aria-live=polite]").textContent).toBe("Records are stored.");
  });
});

describe("records and indicator", () => {
  it("shows the bests compactly in the status line, hidden when records are off", () => {
    mount(startState({ stats: records() }));
    expect(q(".pl-records").textContent).toBe("Best 645 \u00b7 Streak 2");
    expect(q(".pl-records-warn").hidden).toBe(true);
    h.model.set("state", startState({ version: 2, stats: records({ enabled: false, error: "disk full" }) }));
    expect(q(".pl-records").hidden).toBe(true);
    const warn = q(".pl-records-warn");
    expect(warn.hidden).toBe(false);
    expect(warn.title).toBe(`${LABELS["records-off"]}: disk full`);
    const notice = "Je statistieken kunnen niet worden opgeslagen: de schijf is vol";
    h.model.set("state", startState({ version: 3, stats: records({ enabled: false, error: "disk full", notice }) }));
    expect(q(".pl-records-warn").title).toBe(notice);
    expect(q(".pl-records-warn").getAttribute("aria-label")).toBe(notice);
  });

  it("names new personal bests in the win banner", () => {
    mount(startState({ status: "won", stats: records({ new: ["best_score", "fastest_win"] }) }));
    expect(q(".pl-banner-record").textContent).toBe("New personal best: best score, fastest win");
  });

  it("shows the winnability badge per verdict, hidden when off", () => {
    mount(startState({ indicator: { enabled: true, verdict: "winnable", error: null } }));
    const badge = q(".pl-indicator");
    expect(badge.hidden).toBe(false);
    expect(badge.textContent).toBe("Winnable (knows the face-down cards)");
    h.model.set("state", startState({ version: 2, indicator: { enabled: true, verdict: "pending", error: null } }));
    expect(badge.dataset.verdict).toBe("pending");
    expect(badge.textContent).toBe("Thinking\u2026");
    h.model.set("state", startState({ version: 3, indicator: { enabled: true, verdict: "lost", error: null } }));
    expect(badge.textContent).toBe("Lost (knows the face-down cards)");
    h.model.set("state", startState({ version: 4, indicator: { enabled: false, verdict: "lost", error: null } }));
    expect(badge.hidden).toBe(true);
  });
});

describe("words", () => {
  it("fall back to the key, never to English", () => {
    expect(word({}, "undo")).toBe("undo");
    expect(word({ undo: "Ångra" }, "undo")).toBe("Ångra");
    mount(startState(), { undo: "Ångra" });
    expect(q('.pl-bar [data-action="undo"]').textContent).toContain("Ångra");
    expect(q('.pl-bar [data-action="redo"]').textContent).toContain("redo");
    expect(q('[data-card="QH"]').getAttribute("aria-label")).toBe("rank.12 suit.H");
  });
});
