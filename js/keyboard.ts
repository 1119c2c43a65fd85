/** Keyboard play: arrows move a focus ring over piles and cards, Enter/Space picks up and drops, and shortcuts.
 * Emits actions; the focus ring's moves are pure functions of the state (`ui.ts`). */

import type { BoardInput } from "./input";
import { activateActions, focusedCard, foundationDrop, isStepping, nextFocus } from "./ui";
import type { LessonAction } from "./types";

/** Lesson keys (while a lesson is shown and not taken over): step forward, back, to the first or last step, and
 * play/pause. Plain arrows keep moving the focus ring. */
export function lessonKey(e: KeyboardEvent): LessonAction | null {
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  const k = e.key;
  if (k === "." || k === ">" || (e.shiftKey && k === "ArrowRight")) return "forward";
  if (k === "," || k === "<" || (e.shiftKey && k === "ArrowLeft")) return "back";
  if (e.shiftKey && k === "Home") return "first";
  if (e.shiftKey && k === "End") return "last";
  if (k === "p" || k === "P") return "play";
  return null;
}

/** Wires keys on the board's root; everything is removed when `signal` aborts. */
export function attachKeyboard(board: BoardInput, signal: AbortSignal): void {
  const root = board.root;
  const show = (visible: boolean): void => board.dispatch({ type: "focus", focus: board.ui().focus, visible });
  root.addEventListener("keydown", (e) => onKey(board, e), { signal });
  root.addEventListener("pointerdown", () => show(false), { signal });
  root.addEventListener("blur", () => show(false), { signal });
  // Tabbing into the board shows the focus ring at once.
  root.addEventListener(
    "keyup",
    (e) => {
      if (e.key === "Tab" && e.target === root && !board.ui().focusVisible) show(true);
    },
    { signal },
  );
}

function onKey(board: BoardInput, e: KeyboardEvent): void {
  if (e.target !== board.root || e.altKey) return;
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  const ctrl = e.ctrlKey || e.metaKey;
  const state = board.game();
  const ui = board.ui();
  let handled = true;
  const step = isStepping(state) ? lessonKey(e) : null;
  if (step) {
    board.dispatch({ type: "lesson", action: step });
  } else if (key.startsWith("Arrow") && !ctrl) {
    const focus = ui.focusVisible ? nextFocus(state, ui.focus, key) : ui.focus;
    board.dispatch({ type: "focus", focus, visible: true });
    board.dispatch({ type: "announce-focus" });
  } else if ((key === "Enter" || key === " ") && !ctrl) {
    board.dispatch({ type: "focus", focus: ui.focus, visible: true });
    for (const action of activateActions(state, board.ui())) board.dispatch(action);
  } else if (key === "Escape") {
    if (!ui.selected) handled = false;
    board.dispatch({ type: "select", card: null });
  } else if (ctrl && (key === "y" || (key === "z" && e.shiftKey))) {
    board.dispatch({ type: "intent", body: { type: "redo" } });
  } else if ((ctrl && key === "z") || (key === "u" && !ctrl)) {
    board.dispatch({ type: "intent", body: { type: "undo" } });
  } else if (ctrl) {
    handled = false;
  } else if (key === "d") {
    board.dispatch({ type: "stock" });
  } else if (key === "h") {
    board.dispatch({ type: "intent", body: { type: "hint" } });
  } else if (key === "c" && board.recording()) {
    board.dispatch({ type: "intent", body: { type: "record", action: "clear" } });
  } else if (key === "f") {
    // A card with no legal foundation move names "its own foundation" (`f`): Python says why not.
    const card = focusedCard(state, ui.focus);
    if (card) board.dispatch({ type: "move", card, to: foundationDrop(state, card) ?? "f" });
  } else {
    handled = false;
  }
  if (!handled) return;
  e.preventDefault();
  e.stopPropagation();
}
