import { describe, expect, it } from "vitest";
import { Harness, LABELS, afterMove, catalogueLabels, startState } from "./helpers";
import type { GameState, Labels } from "../types";

const h = new Harness();
const mount = (state?: GameState, labels?: Labels): HTMLElement => h.mount(state, labels);
const q = <T extends Element = HTMLElement>(sel: string): T => h.q<T>(sel);

describe("rendering", () => {
  it("builds every pile and card from the state", () => {
    mount();
    const root = q(".pl-root");
    expect(root.dataset.version).toBe("1");
    expect(root.dataset.status).toBe("playing");
    expect(root.tabIndex).toBe(0);
    expect(root.getAttribute("data-lm-suppress-shortcuts")).toBe("true");
    const piles = [...h.host.querySelectorAll<HTMLElement>("[data-pile]")].map((p) => p.dataset.pile);
    expect(piles).toEqual(["stock", "w", "fC", "fD", "fH", "fS", "t1", "t2", "t3", "t4", "t5", "t6", "t7"]);
    expect(h.host.querySelectorAll('[data-pile="stock"] [data-card="back"]')).toHaveLength(24);
    expect(h.host.querySelectorAll('[data-pile="t7"] [data-card="back"]')).toHaveLength(6);
    expect(q('[data-pile="t7"] [data-card="QH"]')).toBeTruthy();
    expect(h.host.querySelectorAll("[data-card]")).toHaveLength(52);
  });

  it("labels cards in words, from labels where given", () => {
    mount(startState(), { ...LABELS, "suit.H": "harten", "rank.12": "Vrouw", of: "{suit} {rank}" });
    expect(q('[data-card="5H"]').getAttribute("aria-label")).toBe("harten 5");
    expect(q('[data-card="QH"]').getAttribute("aria-label")).toBe("harten Vrouw");
    expect(q('[data-card="KD"]').getAttribute("aria-label")).toBe("diamonds King");
    expect(q('[data-card="AD"]').getAttribute("aria-label")).toBe("diamonds Ace");
  });

  it("shows the language's letters on the faces by default, and A J Q K with faces=standard", () => {
    const corner = (id: string): string | null | undefined =>
      q(`[data-card="${id}"] .pl-tl .pl-rank`).textContent;
    mount(startState(), catalogueLabels("sv"));
    expect([corner("QH"), corner("AD"), corner("KD")]).toEqual(["D", "E", "K"]);
    expect(q('[data-card="QH"] .pl-court-letter').textContent).toBe("D");
    h.model.set("faces", "standard");
    expect([corner("QH"), corner("AD"), corner("KD")]).toEqual(["Q", "A", "K"]);
    h.model.set("faces", "local");
    h.model.set("labels", catalogueLabels("nl"));
    expect([corner("QH"), corner("AD"), corner("5H")]).toEqual(["V", "A", "5"]);
    h.model.set("faces", "standard");
    expect(corner("QH")).toBe("Q");
  });

  it("marks movable cards only", () => {
    mount();
    expect(q('[data-card="5H"]').classList.contains("pl-movable")).toBe(true);
    expect(q('[data-card="QH"]').classList.contains("pl-movable")).toBe(false);
  });

  it("shows foundations up to their count", () => {
    const state = startState({ foundations: { C: 0, D: 3, H: 0, S: 1 } });
    state.tableau[2].up = ["4S"];
    mount(state);
    const fD = [...h.host.querySelectorAll<HTMLElement>('[data-pile="fD"] [data-card]')].map((c) => c.dataset.card);
    expect(fD).toEqual(["AD", "2D", "3D"]);
    expect(q('[data-pile="fS"] [data-card="AS"]')).toBeTruthy();
  });

  it("fans the last three waste cards with draw 3, only the top one movable", () => {
    const state = startState({ draw: 3, waste: ["2H", "3H", "4C", "5S"], stock: [null], targets: { "5S": ["t1"] } });
    mount(state);
    const waste = [...h.host.querySelectorAll<HTMLElement>('[data-pile="w"] .pl-card')];
    expect(waste.map((c) => c.dataset.card)).toEqual(["2H", "3H", "4C", "5S"]);
    expect(waste.map((c) => Number(c.style.getPropertyValue("--x")))).toEqual([0, 0, 0.55, 1.1]);
    expect(waste.map((c) => c.classList.contains("pl-movable"))).toEqual([false, false, false, true]);
  });

  it("fixes the cards' width with the size trait, and fits them again without it", () => {
    mount();
    const root = q(".pl-root");
    expect(root.style.getPropertyValue("--pl-card-width")).toBe("");
    h.model.set("size", 120);
    expect(root.style.getPropertyValue("--pl-card-width")).toBe("120px");
    h.model.set("size", 9999);
    expect(root.style.getPropertyValue("--pl-card-width")).toBe("");
    h.model.set("size", 80);
    h.model.set("size", null);
    expect(root.style.getPropertyValue("--pl-card-width")).toBe("");
  });

  it("draws six columns for a six-column game", () => {
    const s = startState({ columns: 6 });
    s.tableau = s.tableau.slice(0, 6);
    mount(s);
    expect(h.host.querySelectorAll('.pl-tableau [data-pile^="t"]')).toHaveLength(6);
    expect(h.host.querySelector('[data-pile="t7"]')).toBeNull();
  });

  it("reuses card elements across renders (keyed update)", () => {
    mount();
    const card = q('[data-card="5H"]');
    const ace = q('[data-card="AD"]');
    h.model.set("state", afterMove());
    expect(q('[data-pile="t2"] [data-card="5H"]')).toBe(card);
    expect(q('[data-card="AD"]')).toBe(ace);
    expect(q(".pl-root").dataset.version).toBe("2");
    expect(h.host.querySelectorAll('[data-pile="t1"] .pl-card')).toHaveLength(0);
  });

  it("announces the last move in the live region", () => {
    mount();
    h.model.set("state", afterMove());
    const live = q("[aria-live=polite]");
    expect(live.textContent).toBe("5 of hearts to Column 2");
  });

  it("shows the status line and the stuck banner", () => {
    const rules = { preset: "traditional", draw: 3, max_passes: 3, foundation_to_tableau: false, scoring: "standard" };
    mount(startState({ score: 35, moves: 12, seconds: 75, passes_left: 2, rules, status: "stuck", can_undo: true }));
    expect(q('[data-stat="score"]').textContent).toContain("35");
    expect(q('[data-stat="moves"]').textContent).toContain("12");
    expect(q('[data-stat="time"]').textContent).toContain("01:15");
    expect(q('[data-stat="pass"]').hidden).toBe(false);
    expect(q('[data-stat="pass"] .pl-stat-label').textContent).toBe("Pass");
    expect(q('[data-stat="pass"] .pl-stat-value').textContent).toBe("1 of 3");
    const banner = q(".pl-banner");
    expect(banner.hidden).toBe(false);
    expect(banner.textContent).toContain("No moves left");
    q<HTMLButtonElement>('.pl-banner [data-action="undo"]').click();
    expect(h.model.sent[h.model.sent.length - 1]).toMatchObject({ type: "undo", version: 1 });
  });

  it("hides the end-of-game banner while a lesson shows its steps, as on a review's last step", () => {
    const lesson = {
      title: "Review",
      step: 20,
      steps: 20,
      caption: "Move 20 was the last.",
      note: null,
      playing: false,
      pace: 2,
      taken_over: false,
      highlight: null,
      marks: [],
      quiz: null,
      review: true,
    };
    mount(startState({ status: "stuck", can_undo: true, lesson }));
    expect(q(".pl-banner").hidden).toBe(true);
    h.model.set("state", startState({ version: 2, status: "won", lesson }));
    expect(q(".pl-banner").hidden).toBe(true);
    h.model.set("state", startState({ version: 3, status: "stuck", lesson: { ...lesson, taken_over: true } }));
    // the teacher plays on by hand: the game's own end shows
    expect(q(".pl-banner").hidden).toBe(false);
    expect(q(".pl-banner").textContent).toContain("No moves left");
  });

  it("numbers the step a quiz asks about, as Lesson.judge does, and counts in the language's forms", () => {
    const quiz = { waiting: true, tries_left: 1, right: 0, asked: 0, score: "Goede antwoorden: 0 van 0" };
    const lesson = {
      title: "Vragen",
      step: 1,
      steps: 5,
      caption: "Wat zou jij hier spelen? Doe je zet op het bord (nog 1 poging).",
      note: null,
      playing: false,
      pace: 2,
      taken_over: false,
      highlight: null,
      marks: [],
      quiz,
    };
    mount(startState({ lang: "nl", lesson }), catalogueLabels("nl"));
    expect(q(".pl-lesson-step").textContent).toBe("Stap 2 van 5");
    h.model.set("state", startState({ version: 2, lang: "nl", lesson: { ...lesson, quiz: { ...quiz, waiting: false } } }));
    expect(q(".pl-lesson-step").textContent).toBe("Stap 1 van 5");
    const indicator = (searched: number): string => {
      h.model.set("state", startState({ version: 3 + searched, lang: "nl", indicator: { enabled: true, verdict: "pending", searched, error: null } }));
      return q(".pl-indicator-text").textContent ?? "";
    };
    expect(indicator(1)).toBe("Bezig… 1 stand");
    expect(indicator(2)).toBe("Bezig… 2 standen");
  });

  it("shows that the indicator is working: the positions searched so far", () => {
    mount(startState({ indicator: { enabled: true, verdict: "pending", searched: 0, error: null } }));
    expect(q(".pl-indicator-text").textContent).toBe("Thinking…");
    h.model.set("state", startState({ version: 2, indicator: { enabled: true, verdict: "pending", searched: 100000, error: null } }));
    expect(q(".pl-indicator-text").textContent).toBe("Thinking… 100,000 positions");
  });

  it("offers to continue a game left in play, in the board's words", () => {
    const offer = { text: "Wil je verder met je spel van 12:04?", when: "12:04", moves: 14 };
    const base = startState().stats;
    mount(startState({ stats: { ...base, enabled: true, resume: offer } }), catalogueLabels("nl"));
    const banner = q(".pl-banner");
    expect(banner.hidden).toBe(false);
    expect(banner.dataset.kind).toBe("resume");
    expect(q(".pl-banner-title").textContent).toBe(offer.text);
    expect(q('.pl-banner [data-action="resume"]').textContent).toBe("Verder spelen");
    q<HTMLButtonElement>('.pl-banner [data-action="resume-decline"]').click();
    expect(h.model.sent[h.model.sent.length - 1]).toMatchObject({ type: "resume", accept: false });
    q<HTMLButtonElement>('.pl-banner [data-action="resume"]').click();
    expect(h.model.sent[h.model.sent.length - 1]).toMatchObject({ type: "resume", accept: true });
    h.model.set("state", startState({ version: 2 }));
    expect(banner.hidden).toBe(true);
  });

  it("enables Autocomplete only when the state allows it", () => {
    mount();
    const button = q<HTMLButtonElement>('.pl-bar [data-action="autocomplete"]');
    expect(button.disabled).toBe(true);
    h.model.set("state", startState({ version: 2, can_autocomplete: true }));
    expect(button.disabled).toBe(false);
    button.click();
    expect(h.model.sent[h.model.sent.length - 1]).toMatchObject({ type: "autocomplete", version: 2 });
  });

  it("sends a new deal from the New menu", () => {
    mount();
    q<HTMLButtonElement>('[data-action="new"]').click();
    expect(q(".pl-menu").hidden).toBe(false);
    q<HTMLButtonElement>('.pl-menu [data-preset="six-column"]').click();
    expect(h.model.sent[h.model.sent.length - 1]).toMatchObject({ type: "new", preset: "six-column", draw: 3, version: 1 });
    expect(q(".pl-menu").hidden).toBe(true);
  });
});
