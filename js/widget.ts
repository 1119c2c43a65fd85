/** The anywidget entry point: wires the model's `state` and `labels` traits and custom messages to the board. */

import type { RenderProps } from "@anywidget/types";
import { Board } from "./board";
import type { GameState, Labels } from "./types";

interface Traits {
  state: GameState;
  labels: Labels;
  /** The cards' width in pixels, or null: as large as the output's width and the window's height allow. */
  size: number | null;
  /** "standard": the faces show A J Q K; else ("local", the default) the language's rank letters (Dutch B V K A,
   * Swedish Kn D K E). */
  faces: string;
}

function render({ model, el, signal }: RenderProps<Traits>): () => void {
  const board = new Board(el, { send: (intent) => model.send(intent) });
  const onState = (): void => board.setState(model.get("state"));
  const onLabels = (): void => board.setLabels(model.get("labels"));
  const onSize = (): void => board.setSize(model.get("size"));
  const onFaces = (): void => board.setFaces(model.get("faces"));
  const onMessage = (msg: unknown): void => board.receive(msg);
  model.on("change:state", onState);
  model.on("change:labels", onLabels);
  model.on("change:size", onSize);
  model.on("change:faces", onFaces);
  model.on("msg:custom", onMessage);
  onSize();
  onFaces();
  onLabels();
  onState();
  let done = false;
  const cleanup = (): void => {
    if (done) return;
    done = true;
    model.off("change:state", onState);
    model.off("change:labels", onLabels);
    model.off("change:size", onSize);
    model.off("change:faces", onFaces);
    model.off("msg:custom", onMessage);
    board.destroy();
  };
  signal?.addEventListener("abort", cleanup, { once: true });
  return cleanup;
}

export default { render };
