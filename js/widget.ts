/** The anywidget entry point: wires the model's `state` and `labels` traits and custom messages to the board. */

import type { RenderProps } from "@anywidget/types";
import { Board } from "./board";
import type { GameState, Labels } from "./types";

interface Traits {
  state: GameState;
  labels: Labels;
  /** The cards' width in pixels, or null: as large as the output's width and the window's height allow. */
  size: number | null;
}

function render({ model, el, signal }: RenderProps<Traits>): () => void {
  const board = new Board(el, { send: (intent) => model.send(intent) });
  const onState = (): void => board.setState(model.get("state"));
  const onLabels = (): void => board.setLabels(model.get("labels"));
  const onSize = (): void => board.setSize(model.get("size"));
  const onMessage = (msg: unknown): void => board.receive(msg);
  model.on("change:state", onState);
  model.on("change:labels", onLabels);
  model.on("change:size", onSize);
  model.on("msg:custom", onMessage);
  onSize();
  onLabels();
  onState();
  let done = false;
  const cleanup = (): void => {
    if (done) return;
    done = true;
    model.off("change:state", onState);
    model.off("change:labels", onLabels);
    model.off("change:size", onSize);
    model.off("msg:custom", onMessage);
    board.destroy();
  };
  signal?.addEventListener("abort", cleanup, { once: true });
  return cleanup;
}

export default { render };
