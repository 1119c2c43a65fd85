// Mounts the real built bundle with a fake model; the Playwright tests drive it through window.pl.
import widget from "/static/widget.js";
import { FakeModel, KernelModel } from "./fake-model.js";
import * as states from "./states.js";

const errors = [];
window.addEventListener("error", (e) => errors.push(String(e.message)));
window.addEventListener("unhandledrejection", (e) => errors.push(String(e.reason)));

let current = null;
/** Every trait value the board was given (`{trait, value}`), for the test to check against the protocol schema. */
window.plReceived = [];

window.pl = {
  errors,
  states,
  model: null,
  /** Renders the board for a named scenario; `script` maps intents (`5H->t2`, `draw`) to scenario names. */
  mount(name, script = {}, labels = states.LABELS) {
    this.unmount();
    const model = new FakeModel(states.complete(states[name]()), labels);
    for (const [intent, next] of Object.entries(script)) model.script[intent] = states.complete(states[next]());
    const controller = new AbortController();
    const el = document.getElementById("cell");
    const cleanup = widget.render({ model, el, signal: controller.signal });
    current = { controller, cleanup };
    this.model = model;
    return model.data.state.version;
  },
  /** Renders the board for a real Python widget behind `window.plKernel`. */
  mountKernel(state, labels) {
    this.unmount();
    const model = new KernelModel(state, labels);
    const controller = new AbortController();
    widget.render({ model, el: document.getElementById("cell"), signal: controller.signal });
    current = { controller };
    this.model = model;
    return state.version;
  },
  unmount() {
    if (current) {
      current.controller.abort();
      current = null;
    }
  },
};
document.documentElement.dataset.ready = "true";
