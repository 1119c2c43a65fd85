import { describe, expect, it } from "vitest";
import { Harness, key, startState, tap } from "./helpers";
import type { GameState, Labels } from "../types";

const h = new Harness();
const mount = (state?: GameState, labels?: Labels): HTMLElement => h.mount(state, labels);
const q = <T extends Element = HTMLElement>(sel: string): T => h.q<T>(sel);

describe("pointer", () => {
  it("selects a card by click and moves it by clicking a target pile", () => {
    mount();
    tap(q('[data-card="5H"]'));
    expect(q('[data-card="5H"]').classList.contains("pl-selected")).toBe(true);
    expect(q('[data-pile="t2"]').classList.contains("pl-target")).toBe(true);
    tap(q('[data-pile="t2"] [data-card="6S"]'));
    expect(h.model.sent).toEqual([{ type: "move", card: "5H", to: "t2", version: 1, id: 1 }]);
    expect(h.host.querySelector(".pl-selected")).toBeNull();
  });

  it("clicking the selected card again drops the selection", () => {
    mount();
    tap(q('[data-card="5H"]'));
    tap(q('[data-card="5H"]'));
    expect(h.host.querySelector(".pl-selected")).toBeNull();
  });

  it("picks up by click a card with no legal move, as a drag does: a click on a pile asks why not", () => {
    // a quiz's wrong answer (issue 60): the 5 of diamonds, then column 2, must be answered as the drag is
    mount();
    tap(q('[data-card="QH"]'));
    expect(q('[data-card="QH"]').classList.contains("pl-selected")).toBe(true);
    expect(h.host.querySelectorAll(".pl-target")).toHaveLength(0);
    tap(q('[data-pile="t2"] [data-card="6S"]'));
    expect(h.model.sent).toEqual([{ type: "move", card: "QH", to: "t2", version: 1, id: 1 }]);
    h.model.emit("msg:custom", { type: "rejected", id: 1, rule: "one-lower", text: "The Q♥ goes on a black K.", version: 1 });
    expect(q(".pl-say").textContent).toBe("The Q♥ goes on a black K.");
  });

  it("does not pick up a face-down card by click", () => {
    mount();
    tap(q('[data-pile="t7"] .pl-card'));
    expect(h.host.querySelector(".pl-selected")).toBeNull();
    expect(h.model.sent).toEqual([]);
  });

  it("double-click sends a card to its foundation", () => {
    mount();
    const ace = q('[data-card="AD"]');
    tap(ace);
    tap(ace);
    expect(h.model.sent).toEqual([{ type: "move", card: "AD", to: "fD", version: 1, id: 1 }]);
  });

  it("double-click does nothing for a card that cannot go to a foundation", () => {
    mount();
    tap(q('[data-card="5H"]'));
    tap(q('[data-card="5H"]'));
    expect(h.model.sent).toEqual([]);
  });

  it("clicking the stock draws", () => {
    mount();
    tap(q('[data-pile="stock"] .pl-card'));
    expect(h.model.sent).toEqual([{ type: "draw", version: 1, id: 1 }]);
  });

  it("clicking the empty stock recycles", () => {
    mount(startState({ stock: [], waste: ["2H", "3H"], can_draw: false, can_recycle: true }));
    expect(q('[data-pile="stock"]').classList.contains("pl-can-recycle")).toBe(true);
    tap(q('[data-pile="stock"]'));
    expect(h.model.sent).toEqual([{ type: "recycle", version: 1, id: 1 }]);
  });

  it("shows no passes left on an empty stock that cannot recycle", () => {
    mount(startState({ stock: [], waste: ["2H"], can_draw: false, can_recycle: false, passes_left: 0 }));
    const stock = q('[data-pile="stock"]');
    expect(stock.classList.contains("pl-no-passes")).toBe(true);
    expect(stock.dataset.emptyLabel).toBe("No passes left");
    tap(stock);
    expect(h.model.sent).toEqual([]);
    expect(q(".pl-say").textContent).toBe("No passes left");
  });
});

describe("keyboard", () => {
  it("arrows and Enter pick up a card and drop it on a pile", () => {
    const root = mount();
    key(root, "ArrowRight"); // shows the focus ring on column 1
    expect(q('[data-card="5H"]').classList.contains("pl-focus")).toBe(true);
    key(root, "Enter");
    expect(q('[data-card="5H"]').classList.contains("pl-selected")).toBe(true);
    key(root, "ArrowRight");
    expect(q('[data-card="6S"]').classList.contains("pl-focus")).toBe(true);
    key(root, " ");
    expect(h.model.sent).toEqual([{ type: "move", card: "5H", to: "t2", version: 1, id: 1 }]);
  });

  it("Escape cancels a pick-up", () => {
    const root = mount();
    key(root, "ArrowRight");
    key(root, "Enter");
    key(root, "Escape");
    expect(h.host.querySelector(".pl-selected")).toBeNull();
  });

  it("arrow up from a column reaches the top row", () => {
    const root = mount();
    key(root, "ArrowDown");
    key(root, "ArrowUp");
    expect(q('[data-pile="stock"] .pl-card:last-child').classList.contains("pl-focus")).toBe(true);
    key(root, "Enter");
    expect(h.model.sent).toEqual([{ type: "draw", version: 1, id: 1 }]);
  });

  it("d draws, u and Ctrl+Z undo, Ctrl+Y and Ctrl+Shift+Z redo", () => {
    const root = mount();
    key(root, "d");
    key(root, "u");
    key(root, "z", { ctrlKey: true });
    key(root, "y", { ctrlKey: true });
    key(root, "Z", { ctrlKey: true, shiftKey: true });
    expect(h.model.sent.map((m) => m.type)).toEqual(["draw", "undo", "undo", "redo", "redo"]);
  });

  it("f sends the focused card to its foundation", () => {
    const root = mount();
    key(root, "ArrowRight");
    key(root, "ArrowRight");
    key(root, "ArrowRight");
    key(root, "f");
    expect(h.model.sent).toEqual([{ type: "move", card: "AD", to: "fD", version: 1, id: 1 }]);
  });

  it("keeps handled keys from reaching the page (JupyterLab)", () => {
    const root = mount();
    const seen: string[] = [];
    const spy = (e: KeyboardEvent): void => void seen.push(e.key);
    document.addEventListener("keydown", spy);
    const e = key(root, "d");
    key(root, "ArrowLeft");
    document.removeEventListener("keydown", spy);
    expect(seen).toEqual([]);
    expect(e.defaultPrevented).toBe(true);
  });
});

describe("replies", () => {
  it("shows a rejection in the message line until the next action, and in the live region", () => {
    mount();
    h.model.emit("msg:custom", { type: "rejected", id: 1, rule: "one-lower", text: "The 5♥ cannot go there.", version: 1 });
    const line = q(".pl-say");
    expect(line.textContent).toBe("The 5♥ cannot go there.");
    expect(line.dataset.kind).toBe("error");
    expect(q("[aria-live=polite]").textContent).toBe("The 5♥ cannot go there.");
    q('[data-action="undo"]').removeAttribute("disabled");
    q<HTMLButtonElement>('[data-action="undo"]').click();
    expect(line.textContent).toBe("");
  });

  it("highlights the hinted card and pile and says why, until the next action", () => {
    mount();
    const text = "Move the 5♥ onto the 6♠: it turns up a card.";
    h.model.emit("msg:custom", { type: "hint", id: 1, move: "t1-t2", card: "5H", to: "t2", reason: "turn-up", text });
    expect(q('[data-card="5H"]').classList.contains("pl-hint")).toBe(true);
    expect(q('[data-pile="t2"]').classList.contains("pl-hint")).toBe(true);
    expect(q(".pl-say").textContent).toBe(text);
    expect(q(".pl-say").dataset.kind).toBe("hint");
    h.model.set("state", startState({ version: 1 })); // the same version: nothing happened yet
    expect(q('[data-card="5H"]').classList.contains("pl-hint")).toBe(true);
    tap(q('[data-pile="stock"]')); // the next action
    expect(h.host.querySelectorAll(".pl-hint")).toHaveLength(0);
    expect(q(".pl-say").textContent).toBe("");
  });

  it("highlights the stock for a draw hint", () => {
    mount();
    h.model.emit("msg:custom", { type: "hint", id: 1, move: "d", card: null, to: "stock", text: "d" });
    expect(q('[data-pile="stock"]').classList.contains("pl-hint")).toBe(true);
  });
});

describe("cleanup", () => {
  it("removes h.model listeners, DOM listeners and the board", () => {
    const root = mount();
    expect(h.model.listenerCount()).toBe(5);
    h.cleanup?.();
    expect(h.model.listenerCount()).toBe(0);
    expect(h.host.querySelector(".pl-root")).toBeNull();
    key(root, "d");
    tap(root.querySelector('[data-pile="stock"] .pl-card') as Element);
    expect(h.model.sent).toEqual([]);
  });

  it("cleans up when anywidget aborts the signal", () => {
    mount();
    h.controller.abort();
    expect(h.model.listenerCount()).toBe(0);
    expect(h.host.querySelector(".pl-root")).toBeNull();
  });
});
