import { describe, expect, it } from "vitest";
import { MARK_SIGNS, drawChart, percent } from "../chart";
import { Harness, LABELS, catalogueLabels, key, startState } from "./helpers";
import type { GameState, LessonState, ReviewChart } from "../types";

const h = new Harness();
const last = (): unknown => h.model.sent[h.model.sent.length - 1];

/** A game of 20 moves: chances fall at the marked moves 6 (a mistake), 12 (a blunder), 13 (an inaccuracy) and bad
 * luck decides it at move 16. */
function chart(over: Partial<ReviewChart> = {}): ReviewChart {
  const points = Array.from({ length: 21 }, (_, step) => {
    const estimate = step < 6 ? 0.7 : step < 12 ? 0.5 : step < 16 ? 0.3 : 0;
    return { step, estimate, low: Math.max(0, estimate - 0.1), high: Math.min(1, estimate + 0.1) };
  });
  const marks: ReviewChart["marks"] = [
    { step: 5, move: 6, label: "mistake" },
    { step: 11, move: 12, label: "blunder" },
    { step: 12, move: 13, label: "inaccuracy" },
    { step: 16, move: 16, label: "luck" },
  ];
  return { points, marks, lost_from: 16, ...over };
}

function review(over: Partial<LessonState> = {}): LessonState {
  return {
    title: "Review",
    step: 11,
    steps: 20,
    caption: "Move the 5♥ onto the 6♠.",
    note: "A blunder: your chances fell from 50% to 30%.",
    playing: false,
    pace: 2,
    taken_over: false,
    highlight: null,
    marks: [],
    quiz: null,
    review: true,
    chart: chart(),
    ...over,
  };
}

const draw = (c: ReviewChart = chart(), step = 11, labels = LABELS, lang = "en"): SVGSVGElement =>
  drawChart(document, c, step, labels, { width: 500, font: 18, lang });

/** The numbers of an SVG `points` attribute, as [x, y] pairs. */
const pairs = (el: Element | null): number[][] =>
  (el?.getAttribute("points") ?? "").split(" ").map((p) => p.split(",").map(Number));

describe("the chart of chances", () => {
  it("draws one point a position: the curve, its band, the 50% guide, the step shown and the lost part", () => {
    const svg = draw();
    expect(svg.getAttribute("role")).toBe("group");
    expect(svg.getAttribute("aria-label")).toBe("Your chances through the game");
    expect(svg.getAttribute("width")).toBe("500");
    const line = pairs(svg.querySelector(".pl-chart-line"));
    expect(line).toHaveLength(21);
    expect(pairs(svg.querySelector(".pl-chart-band"))).toHaveLength(42);
    // higher chances are higher up; x grows with the step
    const xs = line.map(([x]) => x);
    expect(xs).toEqual([...xs].sort((a, b) => a - b));
    expect(line[0][1]).toBeLessThan(line[6][1]);
    expect(line[16][1]).toBeGreaterThan(line[15][1]);
    const guide = svg.querySelector(".pl-chart-guide");
    const y = (v: number): number => {
      const [top, bottom] = [line[0][1], line[20][1]]; // 0.7 and 0
      return bottom - ((bottom - top) / 0.7) * v;
    };
    expect(Number(guide?.getAttribute("y1"))).toBeCloseTo(y(0.5), 0);
    expect(svg.querySelector(".pl-chart-axis")?.textContent).toBe("50%");
    const now = svg.querySelector(".pl-chart-now");
    expect(Number(now?.getAttribute("x1"))).toBeCloseTo(line[11][0], 1);
    const lost = svg.querySelector(".pl-chart-lost");
    expect(Number(lost?.getAttribute("x"))).toBeLessThan(line[16][0]);
    expect(Number(lost?.getAttribute("x"))).toBeGreaterThan(line[15][0]);
    expect(draw(chart({ lost_from: null })).querySelector(".pl-chart-lost")).toBeNull();
  });

  it("marks each kind with its colour class, its shape on the curve and its sign above it", () => {
    const svg = draw();
    const shape = (kind: string): string | undefined =>
      svg.querySelector(`:scope > .pl-chart-mark.pl-chart-${kind}`)?.tagName;
    expect([shape("inaccuracy"), shape("mistake"), shape("blunder"), shape("luck")]).toEqual([
      "circle",
      "rect",
      "polygon",
      "polygon",
    ]);
    // a blunder's triangle points down, bad luck's diamond has four corners
    expect(pairs(svg.querySelector(":scope > .pl-chart-blunder"))).toHaveLength(3);
    expect(pairs(svg.querySelector(":scope > .pl-chart-luck"))).toHaveLength(4);
    const badges = [...svg.querySelectorAll<SVGGElement>(".pl-chart-badge")];
    const sign = (b: SVGGElement): string => b.querySelector("text")?.textContent ?? "die";
    const signs = Object.fromEntries(badges.map((b) => [b.dataset.step, sign(b)]));
    // the inaccuracy right after the blunder has no room for its sign: its circle on the curve stays
    expect(signs).toEqual({ "5": "?", "11": "??", "16": "die" });
    expect(svg.querySelectorAll('.pl-chart-badge[data-step="16"] .pl-chart-pip')).toHaveLength(5);
    expect(svg.querySelector('.pl-chart-badge[data-step="11"]')?.classList.contains("pl-chart-current")).toBe(true);
    expect(MARK_SIGNS).toEqual({ inaccuracy: "?!", mistake: "?", blunder: "??", luck: "" });
    // with room, every mark has its sign
    const wide = drawChart(document, chart(), 0, LABELS, { width: 2000, font: 18, lang: "en" });
    expect(wide.querySelectorAll(".pl-chart-badge")).toHaveLength(4);
    // without marks, no room is kept for signs: the plot starts at the top (the chart keeps its least height)
    const top = (s: SVGSVGElement): number => Number([...s.querySelectorAll(".pl-chart-axis")].at(-1)?.getAttribute("y"));
    expect(top(draw(chart({ marks: [] })))).toBeLessThan(top(svg));
  });

  it("makes every point a button named by its move and chance, the step shown the one in the tab order", () => {
    const svg = draw();
    const hits = [...svg.querySelectorAll<SVGRectElement>(".pl-chart-hit")];
    expect(hits.map((hit) => hit.dataset.step)).toEqual(Array.from({ length: 21 }, (_, k) => String(k)));
    expect(hits.every((hit) => hit.getAttribute("role") === "button")).toBe(true);
    expect(hits.filter((hit) => hit.getAttribute("tabindex") === "0").map((hit) => hit.dataset.step)).toEqual(["11"]);
    expect(hits[11].getAttribute("aria-current")).toBe("step");
    expect(hits[3].getAttribute("aria-label")).toBe("After move 3: 70%");
    expect(hits[11].getAttribute("aria-label")).toBe("After move 11: 50% · Blunder");
    expect(hits[11].querySelector("title")?.textContent).toBe("After move 11: 50% · Blunder");
    // the columns cover the chart's width, edge to edge
    const edges = hits.map((hit) => [Number(hit.getAttribute("x")), Number(hit.getAttribute("width"))]);
    expect(edges[0][0]).toBe(0);
    expect(edges[20][0] + edges[20][1]).toBeCloseTo(500, 0);
  });

  it("draws no number where no deal was decided: a gap in the line, no dot, words instead of a percent", () => {
    // issue 33: the board drew the lower bound (0%) as the chance of a position nobody could estimate
    const c = chart();
    for (const k of [0, 1, 11]) c.points[k] = { step: k, estimate: null, low: 0, high: 1 };
    const svg = draw(c, 11);
    const lines = [...svg.querySelectorAll(".pl-chart-line")];
    expect(lines.map((l) => pairs(l).length)).toEqual([9, 9]); // steps 2-10 and 12-20: nothing at 0, 1 and 11
    expect(svg.querySelector(".pl-chart-dot")).toBeNull(); // the step shown has no number to point at
    const hits = [...svg.querySelectorAll<SVGRectElement>(".pl-chart-hit")];
    expect(hits[0].getAttribute("aria-label")).toBe("After move 0: could not be estimated within the budget");
    expect(hits[11].getAttribute("aria-label")).not.toMatch(/%/);
    expect(draw(c, 11, catalogueLabels("sv")).querySelector(".pl-chart-hit")?.getAttribute("aria-label")).toBe(
      "Efter drag 0: kunde inte uppskattas inom budgeten",
    );
  });

  it("draws a point whose interval is wide as a ring off the line, and says its interval", () => {
    // issue 62: "3%" drawn on the line and said alone where 30 of 32 deals were undecided (interval 1%-99%)
    const c = chart();
    for (const k of [0, 1, 11]) c.points[k] = { step: k, estimate: 0.03, low: 0.01, high: 0.99, wide: true };
    const svg = draw(c, 11);
    const lines = [...svg.querySelectorAll(".pl-chart-line")];
    expect(lines.map((l) => pairs(l).length)).toEqual([9, 9]); // no line through steps 0, 1 and 11
    const rings = [...svg.querySelectorAll(".pl-chart-hollow")];
    expect(rings).toHaveLength(3);
    const hits = [...svg.querySelectorAll<SVGRectElement>(".pl-chart-hit")];
    expect(hits[0].getAttribute("aria-label")).toBe("After move 0: 3% (95% interval 1% to 99%)");
    expect(hits[3].getAttribute("aria-label")).toBe("After move 3: 70%");
    for (const lang of ["nl", "sv"]) {
      const label = draw(c, 11, catalogueLabels(lang), lang).querySelector(".pl-chart-hit")?.getAttribute("aria-label");
      expect(label).toMatch(/99\s?%/);
    }
  });

  it("is tall enough for a projector (90 px on a phone), with 0%, 50% and 100% at its side and move numbers below", () => {
    for (const font of [13, 15, 18]) {
      for (const marks of [chart().marks, []]) {
        const svg = drawChart(document, chart({ marks }), 3, LABELS, { width: 700, font, lang: "en" });
        expect(Number(svg.getAttribute("height"))).toBeGreaterThanOrEqual(120);
        // on a short screen (13 px) the signs' lane costs the cards below no height: the plot gives it up
        if (font === 13) expect(Number(svg.getAttribute("height"))).toBe(120);
      }
    }
    // a phone's chart, held in the hand, leaves the board below its height
    const phone = drawChart(document, chart(), 3, LABELS, { width: 370, font: 13, lang: "en" });
    expect(Number(phone.getAttribute("height"))).toBe(90);
    const svg = draw();
    expect([...svg.querySelectorAll(".pl-chart-axis")].map((t) => t.textContent).sort()).toEqual(["0%", "100%", "50%"]);
    const moves = [...svg.querySelectorAll(".pl-chart-move")].map((t) => Number(t.textContent));
    expect(moves[0]).toBe(0);
    expect(moves.length).toBeGreaterThanOrEqual(3);
    expect(moves).toEqual([...moves].sort((a, b) => a - b));
  });

  it("speaks the board's language", () => {
    const nl = catalogueLabels("nl");
    const svg = draw(chart(), 11, nl, "nl");
    expect(svg.getAttribute("aria-label")).toBe("Je kansen in de loop van de partij");
    expect(svg.querySelector('.pl-chart-hit[data-step="11"]')?.getAttribute("aria-label")).toBe(
      "Na zet 11: 50% · Blunder",
    );
    const sv = catalogueLabels("sv");
    const svgSv = draw(chart(), 5, sv, "sv");
    expect(svgSv.querySelector(".pl-chart-axis")?.textContent).toBe(percent("sv")(0.5));
    expect(percent("sv")(0.5)).toMatch(/^50\s%$/);
    expect(svgSv.querySelector('.pl-chart-hit[data-step="5"]')?.getAttribute("aria-label")).toMatch(
      /^Efter drag 5: 70\s% · Misstag$/,
    );
    expect(percent("not a language")(0.25)).toBe("25%");
  });

  it("clamps numbers outside [0, 1] and leaves out marks it cannot place", () => {
    const c = chart({
      marks: [
        { step: 99, move: 100, label: "blunder" },
        { step: 3, move: 4, label: "great" as "luck" },
      ],
    });
    c.points[0] = { step: 0, estimate: 1.5, low: -1, high: 2 };
    const svg = draw(c);
    expect(svg.querySelectorAll(".pl-chart-badge, :scope > .pl-chart-mark")).toHaveLength(0);
    const [top] = pairs(svg.querySelector(".pl-chart-line"));
    expect(top[1]).toBeGreaterThan(0);
    expect(Number.isFinite(top[1])).toBe(true);
  });
});

describe("the chart in the lesson box", () => {
  const mount = (over: Partial<LessonState> = {}, state: Partial<GameState> = {}): HTMLElement =>
    h.mount(startState({ lesson: review(over), ...state }));

  it("shows a review's chart and its mark buttons, and neither in another lesson", () => {
    mount();
    expect(h.q(".pl-chart-box").hidden).toBe(false);
    expect(h.q(".pl-lesson").classList.contains("pl-has-chart")).toBe(true);
    expect(h.q(".pl-mark-steps").hidden).toBe(false);
    expect(h.q('[data-lesson="prev-mark"]').getAttribute("aria-label")).toBe("Previous marked move");
    expect(h.q('[data-lesson="next-mark"] svg')).toBeTruthy();
    h.model.set("state", startState({ version: 2, lesson: review({ chart: null, review: false }) }));
    expect(h.q(".pl-chart-box").hidden).toBe(true);
    expect(h.host.querySelector(".pl-chart")).toBeNull();
    expect(h.q(".pl-mark-steps").hidden).toBe(true);
    expect(h.q(".pl-lesson").classList.contains("pl-has-chart")).toBe(false);
    const { chart: _gone, ...old } = review();
    h.model.set("state", startState({ version: 3, lesson: old }));
    expect(h.q(".pl-chart-box").hidden).toBe(true);
  });

  it("hides the mark buttons when the chart marks no move, and disables each when no mark lies that way", () => {
    mount({ chart: chart({ marks: [] }) });
    expect(h.q(".pl-chart-box").hidden).toBe(false);
    expect(h.q(".pl-mark-steps").hidden).toBe(true);
    h.model.set("state", startState({ version: 2, lesson: review({ step: 2 }) }));
    expect(h.q<HTMLButtonElement>('[data-lesson="prev-mark"]').disabled).toBe(true);
    expect(h.q<HTMLButtonElement>('[data-lesson="next-mark"]').disabled).toBe(false);
    h.model.set("state", startState({ version: 3, lesson: review({ step: 11 }) }));
    expect(h.q<HTMLButtonElement>('[data-lesson="prev-mark"]').disabled).toBe(false);
    expect(h.q<HTMLButtonElement>('[data-lesson="next-mark"]').disabled).toBe(false);
    h.model.set("state", startState({ version: 4, lesson: review({ step: 16 }) }));
    expect(h.q<HTMLButtonElement>('[data-lesson="next-mark"]').disabled).toBe(true);
  });

  it("sends prev-mark and next-mark", () => {
    mount();
    h.q('[data-lesson="next-mark"]').click();
    expect(last()).toEqual({ type: "lesson", action: "next-mark", version: 1, id: 1 });
    h.q('[data-lesson="prev-mark"]').click();
    expect(last()).toEqual({ type: "lesson", action: "prev-mark", version: 1, id: 2 });
  });

  it("goes to the step of a point or a sign clicked", () => {
    mount();
    h.q('.pl-chart-hit[data-step="3"]').dispatchEvent(new MouseEvent("click", { bubbles: true }));
    expect(last()).toEqual({ type: "lesson", action: "goto", step: 3, version: 1, id: 1 });
    h.q('.pl-chart-badge[data-step="16"] .pl-chart-pip').dispatchEvent(new MouseEvent("click", { bubbles: true }));
    expect(last()).toEqual({ type: "lesson", action: "goto", step: 16, version: 1, id: 2 });
    // while the teacher plays on by hand the mark buttons rest, but a point still goes back into the lesson
    h.model.set("state", startState({ version: 2, lesson: review({ taken_over: true }) }));
    expect(h.q<HTMLButtonElement>('[data-lesson="next-mark"]').disabled).toBe(true);
    h.q('.pl-chart-hit[data-step="4"]').dispatchEvent(new MouseEvent("click", { bubbles: true }));
    expect(last()).toEqual({ type: "lesson", action: "goto", step: 4, version: 2, id: 3 });
  });

  it("moves along the curve with the arrows and goes with Enter or Space, keeping the keys from the board", () => {
    mount();
    const at = (step: number): SVGElement => h.q(`.pl-chart-hit[data-step="${step}"]`);
    at(11).focus();
    const right = key(at(11), "ArrowRight");
    expect(right.defaultPrevented).toBe(true);
    expect((document.activeElement as SVGElement).dataset.step).toBe("12");
    expect(at(12).getAttribute("tabindex")).toBe("0");
    expect(at(11).getAttribute("tabindex")).toBe("-1");
    expect(h.model.sent).toHaveLength(0); // moving the focus asks for nothing
    key(at(12), "Home");
    expect((document.activeElement as SVGElement).dataset.step).toBe("0");
    key(at(0), "ArrowLeft");
    expect((document.activeElement as SVGElement).dataset.step).toBe("0");
    key(at(0), "End");
    key(at(20), "PageUp");
    expect((document.activeElement as SVGElement).dataset.step).toBe("10");
    key(at(10), "Enter");
    expect(last()).toEqual({ type: "lesson", action: "goto", step: 10, version: 1, id: 1 });
    key(at(10), " ");
    expect(h.model.sent).toHaveLength(2);
    // the keys the chart takes go no further (JupyterLab's shortcuts listen above the board)
    let heard = 0;
    const listen = (): void => void heard++;
    document.addEventListener("keydown", listen);
    key(at(10), "ArrowRight", { shiftKey: true });
    key(at(11), "Enter");
    expect(heard).toBe(0);
    key(at(11), "x");
    expect(heard).toBe(1);
    document.removeEventListener("keydown", listen);
    expect(h.model.sent).toHaveLength(3);
  });

  it("keeps the focus on its point when the next state draws it again", () => {
    mount();
    const point = h.q<SVGElement>('.pl-chart-hit[data-step="7"]');
    point.focus();
    key(point, "Enter");
    h.model.set("state", startState({ version: 2, lesson: review({ step: 7 }) }));
    const again = document.activeElement as SVGElement;
    expect(again).not.toBe(point);
    expect(again.dataset.step).toBe("7");
    expect(again.getAttribute("aria-current")).toBe("step");
    expect(h.host.querySelectorAll('.pl-chart-hit[tabindex="0"]')).toHaveLength(1);
  });
});

describe("a review running", () => {
  it("says how far it is on the Review button and the status line, and Cancel asks Python to stop it", () => {
    const running = { offered: false, busy: true, progress: { done: 12, total: 80 } };
    const state = startState({ status: "stuck", review: running });
    h.mount(state);
    expect(h.q('.pl-banner [data-action="review"]').textContent).toBe("Reviewing… 12/80");
    expect(h.q(".pl-reviewing").textContent).toBe("Reviewing… 12/80");
    expect(h.q(".pl-reviewing").hidden).toBe(false);
    const cancel = h.q<HTMLButtonElement>('.pl-bar [data-action="cancel-review"]');
    expect(cancel.hidden).toBe(false);
    expect(cancel.getAttribute("aria-label")).toBe("Cancel review");
    cancel.click();
    expect(last()).toEqual({ type: "review", action: "cancel", version: 1, id: 1 });
    h.model.set("state", { ...state, version: 2, review: { offered: false, busy: true, progress: null } });
    expect(h.q(".pl-reviewing").textContent).toBe(LABELS.reviewing);
    h.model.set("state", { ...state, version: 3, review: { offered: true, busy: false, progress: null } });
    expect(h.q<HTMLButtonElement>('.pl-bar [data-action="cancel-review"]').hidden).toBe(true);
    expect(h.q(".pl-reviewing").hidden).toBe(true);
    expect(h.q('.pl-banner [data-action="review"]').textContent).toBe(LABELS.review);
  });

  it("says it in Dutch and Swedish", () => {
    const running = { offered: false, busy: true, progress: { done: 3, total: 9 } };
    const state = startState({ status: "stuck", review: running });
    h.mount(state, catalogueLabels("nl"));
    expect(h.q(".pl-reviewing").textContent).toBe("Nakijken… 3/9");
    h.model.set("labels", catalogueLabels("sv"));
    expect(h.q(".pl-reviewing").textContent).toBe("Går igenom… 3/9");
    expect(h.q('.pl-bar [data-action="cancel-review"]').getAttribute("aria-label")).toBe("Avbryt genomgången");
  });
});
