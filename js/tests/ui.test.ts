import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { LABELS, afterMove, catalogueLabels, poLabels, startState } from "./helpers";
import { passText } from "../toolbar";
import {
  activateActions,
  canPickUp,
  clampFocus,
  focusedCard,
  foundationDrop,
  initialInteraction,
  legalDrops,
  nextFocus,
  reduce,
  stockIntent,
  tapActions,
} from "../ui";

describe("the interaction, pure", () => {
  it("takes legal drops and what may be picked up from the state alone", () => {
    const s = startState();
    expect(legalDrops(s, "5H")).toEqual(["t2"]);
    expect(legalDrops(s, "QH")).toEqual([]);
    expect(foundationDrop(s, "AD")).toBe("fD");
    expect(foundationDrop(s, "5H")).toBeNull();
    expect(canPickUp(s, "QH")).toBe(true);
    expect(canPickUp({ ...s, pickable: [] }, "QH")).toBe(false);
  });

  it("selects what a drag may pick up, and a click on a pile moves it there (legal or not: Python says why)", () => {
    const s = startState();
    let ui = reduce(s, initialInteraction(), { type: "select", card: "QH" });
    expect(ui.selected).toBe("QH");
    expect(tapActions(s, ui, "6S", "t2", false)).toEqual([{ type: "move", card: "QH", to: "t2" }]);
    expect(reduce({ ...s, pickable: [] }, initialInteraction(), { type: "select", card: "QH" }).selected).toBeNull();
    ui = reduce(s, ui, { type: "select", card: "5H" });
    expect(ui.selected).toBe("5H");
    expect(tapActions(s, ui, "6S", "t2", false)).toEqual([{ type: "move", card: "5H", to: "t2" }]);
    expect(tapActions(s, ui, "5H", "t1", false)).toEqual([{ type: "select", card: null }]);
    expect(tapActions(s, initialInteraction(), "AD", "t3", true)).toEqual([{ type: "move", card: "AD", to: "fD" }]);
    expect(tapActions(s, initialInteraction(), null, "stock", false)).toEqual([{ type: "stock" }]);
  });

  it("knows what the stock does", () => {
    expect(stockIntent(startState())).toEqual({ type: "draw" });
    expect(stockIntent(startState({ stock: [], waste: ["2H"], can_recycle: true }))).toEqual({ type: "recycle" });
    expect(stockIntent(startState({ stock: [], waste: ["2H"], passes_left: 0 }))).toBe("no-passes");
    // None from a Pyodide kernel arrives as undefined: still "unlimited".
    expect(stockIntent(startState({ stock: [], waste: ["2H"], passes_left: undefined as unknown as null }))).toBeNull();
  });

  it("moves the focus ring over piles and cards", () => {
    const s = afterMove();
    const start = { pile: "t1", index: -1 };
    expect(nextFocus(s, start, "ArrowRight")).toEqual({ pile: "t2", index: 2 });
    expect(nextFocus(s, { pile: "t2", index: 2 }, "ArrowUp")).toEqual({ pile: "t2", index: 1 });
    expect(nextFocus(s, { pile: "t2", index: 1 }, "ArrowUp")).toEqual({ pile: "w", index: -1 });
    expect(nextFocus(s, { pile: "w", index: -1 }, "ArrowLeft")).toEqual({ pile: "stock", index: 23 });
    expect(focusedCard(s, { pile: "t2", index: 1 })).toBe("6S");
    expect(focusedCard(s, { pile: "t2", index: 0 })).toBeNull();
    expect(clampFocus(s, { pile: "t2", index: 9 })).toEqual({ pile: "t2", index: 2 });
    expect(clampFocus({ ...s, columns: 6 }, { pile: "t7", index: 3 })).toEqual({ pile: "t1", index: -1 });
  });

  it("Enter picks up the focused card and drops it on the focused pile", () => {
    const s = startState();
    const ui = { ...initialInteraction(), focus: { pile: "t1", index: 0 } };
    expect(activateActions(s, ui)).toEqual([{ type: "pick-up", card: "5H" }]);
    const held = reduce(s, ui, { type: "pick-up", card: "5H" });
    expect(activateActions(s, { ...held, focus: { pile: "t2", index: 1 } })).toEqual([
      { type: "move", card: "5H", to: "t2" },
    ]);
    expect(activateActions(s, { ...held, focus: { pile: "w", index: -1 } })).toEqual([{ type: "select", card: null }]);
  });
});

describe("one source of words", () => {
  it("reads the labels of a PO catalogue", () => {
    const po = [
      'msgid ""',
      'msgstr ""',
      '"Language: en\\n"',
      "",
      "# a comment",
      'msgid "label.moved-to"',
      'msgstr "{card} to {place}"',
      "",
      'msgid "label.long"',
      'msgstr ""',
      '"one \\"two\\" "',
      '"three"',
      "",
      'msgid "not-a-label"',
      'msgstr "x"',
    ].join("\n");
    expect(poLabels(po)).toEqual({ "moved-to": "{card} to {place}", long: 'one "two" three' });
  });

  it("takes the tests' English from en.po", () => {
    expect(LABELS.undo).toBe("Undo");
    expect(Object.keys(LABELS).length).toBeGreaterThan(60);
  });
});

describe("the protocol schema", () => {
  it("is generated from types.ts and up to date", () => {
    expect(() => execFileSync(process.execPath, ["schema.mjs", "--check"], { stdio: "pipe" })).not.toThrow();
  }, 60_000);
});

describe("the pass through the stock", () => {
  it("counts the pass being played: a one-pass game starts at 1 of 1", () => {
    const one = { preset: "traditional", draw: 1, max_passes: 1, foundation_to_tableau: false, scoring: "standard" };
    expect(passText(startState({ rules: one, passes_left: 0 }), LABELS)).toBe("1 of 1");
    const three = { ...one, draw: 3, max_passes: 3 };
    expect(passText(startState({ rules: three, passes_left: 2 }), LABELS)).toBe("1 of 3");
    expect(passText(startState({ rules: three, passes_left: 0, recycles: 2 }), LABELS)).toBe("3 of 3");
    expect(passText(startState(), LABELS)).toBeNull();
  });

  it("reads in Dutch and Swedish from their catalogues", () => {
    const one = { preset: "traditional", draw: 1, max_passes: 1, foundation_to_tableau: false, scoring: "standard" };
    expect(passText(startState({ rules: one, passes_left: 0 }), catalogueLabels("nl"))).toBe("1 van 1");
    expect(passText(startState({ rules: one, passes_left: 0 }), catalogueLabels("sv"))).toBe("1 av 1");
  });
});
