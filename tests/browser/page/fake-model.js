// A small fake anywidget model with a scripted "kernel": legal intents that the test prepared get their
// next state; everything else gets a `rejected` reply, like the Python side would send.

export class FakeModel {
  constructor(state, labels) {
    this.data = { state, labels };
    window.plReceived?.push({ trait: "state", value: state }, { trait: "labels", value: labels });
    this.handlers = new Map();
    this.sent = [];
    this.saves = 0;
    this.script = {};
    this.delay = 60;
    this.statsRows = [];
  }
  get(key) {
    return this.data[key];
  }
  set(key, value) {
    this.data[key] = value;
    window.plReceived?.push({ trait: key, value });
    this.emit(`change:${key}`);
  }
  on(name, cb) {
    if (!this.handlers.has(name)) this.handlers.set(name, new Set());
    this.handlers.get(name).add(cb);
  }
  off(name, cb) {
    if (!name) this.handlers.clear();
    else if (!cb) this.handlers.delete(name);
    else this.handlers.get(name)?.delete(cb);
  }
  save_changes() {
    this.saves += 1; // the board never saves: it only sends intents
  }
  emit(name, ...args) {
    for (const cb of this.handlers.get(name) ?? []) cb(...args);
  }
  listenerCount() {
    let n = 0;
    for (const set of this.handlers.values()) n += set.size;
    return n;
  }
  /** An update from the "kernel": not a user save. */
  push(state) {
    this.set("state", state);
  }
  reply(msg) {
    setTimeout(() => this.emit("msg:custom", msg, []), this.delay);
  }
  send(msg) {
    this.sent.push(msg);
    const state = this.data.state;
    const reject = (text, rule = null) =>
      this.reply({ type: "rejected", id: msg.id, rule, text, version: state.version });
    if (msg.version !== state.version) return reject(`stale intent: made on version ${msg.version}`);
    if (msg.type === "stats") return this.reply({ type: "stats", id: msg.id, rows: this.statsRows });
    const key = msg.type === "move" ? `${msg.card}->${msg.to}` : msg.type === "lesson" ? `lesson.${msg.action}` : msg.type;
    if (msg.type === "move" && !(state.targets[msg.card] ?? []).includes(msg.to)) {
      return reject(`The ${msg.card} cannot go on ${msg.to}.`, "one-lower");
    }
    const next = this.script[key];
    if (!next) return reject(`no scripted answer for ${key}`);
    setTimeout(() => this.push({ ...next, version: state.version + 1 }), this.delay);
  }
}

/** A model backed by the real Python widget through `window.plKernel` (exposed by the test). */
export class KernelModel extends FakeModel {
  async send(msg) {
    this.sent.push(msg);
    const answer = await window.plKernel(msg);
    if (answer.labels) this.set("labels", answer.labels);
    if (answer.reply) this.emit("msg:custom", answer.reply, []);
    if (answer.state.version !== this.data.state.version) this.push(answer.state);
  }
}
