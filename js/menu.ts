/** A drop-down menu under a toolbar button (the New menu, the "More" menu) and a closable panel (Rules,
 * Statistics): open and close, arrow keys, Escape, and a click outside closes. "Outside" is judged on the event's
 * composed path, so that it also works when the board lives in a shadow root (marimo). Both open inside the widget
and the visible part of the window (`fit.ts`): flipped, clamped, and scrolling inside when they are too tall. */

import { placePanel, placePopup } from "./fit";
import { icon } from "./icons";

/** A menu of buttons (`.pl-menu-item`) under `button`, both inside `wrap`. */
export class Menu {
  readonly wrap: HTMLElement;
  readonly list: HTMLElement;

  constructor(
    doc: Document,
    readonly button: HTMLButtonElement,
    signal: AbortSignal,
    className: string,
    listClass: string,
  ) {
    this.wrap = doc.createElement("div");
    this.wrap.className = `pl-menu-wrap ${className}`;
    this.list = doc.createElement("div");
    this.list.className = `pl-list ${listClass}`;
    this.list.setAttribute("role", "menu");
    this.list.hidden = true;
    button.setAttribute("aria-haspopup", "menu");
    button.setAttribute("aria-expanded", "false");
    this.wrap.append(button, this.list);
    doc.addEventListener("pointerdown", (e) => this.closeOutside(e), { signal });
    this.list.addEventListener("keydown", (e) => this.onKey(e), { signal });
  }

  get isOpen(): boolean {
    return !this.list.hidden;
  }

  items(): HTMLElement[] {
    return [...this.list.querySelectorAll<HTMLElement>(".pl-menu-item")];
  }

  open(open: boolean): void {
    this.list.hidden = !open;
    this.button.setAttribute("aria-expanded", String(open));
    if (open) {
      this.place();
      this.items()[0]?.focus({ preventScroll: true });
    }
  }

  /** Keeps the open menu inside the widget and the window. */
  place(): void {
    const root = this.wrap.closest<HTMLElement>(".pl-root");
    if (this.isOpen && root) placePopup(this.list, this.button, root);
  }

  private closeOutside(e: Event): void {
    if (this.isOpen && !e.composedPath().includes(this.wrap)) this.open(false);
  }

  private onKey(e: KeyboardEvent): void {
    const items = this.items();
    const at = items.indexOf(e.target as HTMLElement);
    if (e.key === "Escape") {
      this.open(false);
      this.button.focus();
    } else if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      const step = e.key === "ArrowDown" ? 1 : -1;
      items[(at + step + items.length) % items.length]?.focus();
    } else if (e.key === "Home" || e.key === "End") {
      items[e.key === "Home" ? 0 : items.length - 1]?.focus();
    } else if (e.key === "Tab") {
      this.open(false);
      return;
    } else return;
    e.preventDefault();
    e.stopPropagation();
  }
}

/** A floating panel with a title and a close button; Escape or a click outside closes it. */
export class Panel {
  readonly el: HTMLElement;
  readonly body: HTMLElement;
  private readonly heading: HTMLElement;
  private readonly closer: HTMLButtonElement;
  /** Where the focus goes back to when the panel closes. */
  private returnTo: HTMLElement | null = null;

  constructor(
    doc: Document,
    readonly name: string,
    signal: AbortSignal,
  ) {
    this.el = doc.createElement("div");
    this.el.className = `pl-panel pl-panel-${name}`;
    this.el.setAttribute("role", "dialog");
    this.el.hidden = true;
    this.el.tabIndex = -1;
    const head = doc.createElement("div");
    head.className = "pl-panel-head";
    this.heading = doc.createElement("div");
    this.heading.className = "pl-panel-title";
    this.heading.id = `pl-panel-${name}-${Math.random().toString(36).slice(2, 8)}`;
    this.el.setAttribute("aria-labelledby", this.heading.id);
    this.closer = doc.createElement("button");
    this.closer.type = "button";
    this.closer.className = "pl-close";
    this.closer.append(icon(doc, "close"));
    this.closer.addEventListener("click", () => this.open(false), { signal });
    head.append(this.heading, this.closer);
    this.body = doc.createElement("div");
    this.body.className = "pl-panel-body";
    this.el.append(head, this.body);
    this.el.addEventListener("keydown", (e) => this.onKey(e), { signal });
    doc.addEventListener("pointerdown", (e) => this.closeOutside(e), { signal });
  }

  get isOpen(): boolean {
    return !this.el.hidden;
  }

  setTitle(title: string, close: string): void {
    this.heading.textContent = title;
    this.closer.setAttribute("aria-label", close);
    this.closer.title = close;
  }

  /** Keeps the open panel inside the widget and the window, under the toolbar. */
  place(): void {
    const root = this.el.closest<HTMLElement>(".pl-root");
    const bar = root?.querySelector<HTMLElement>(".pl-bar");
    if (!this.isOpen || !root || !bar) return;
    placePanel(this.el, root, bar.getBoundingClientRect().bottom - root.getBoundingClientRect().top + 4);
  }

  open(open: boolean, returnTo: HTMLElement | null = null): void {
    const was = this.isOpen;
    this.el.hidden = !open;
    if (open) {
      this.place();
      if (returnTo) this.returnTo = returnTo;
      this.el.focus({ preventScroll: true });
    } else if (was) {
      this.returnTo?.focus({ preventScroll: true });
    }
  }

  private onKey(e: KeyboardEvent): void {
    if (e.key !== "Escape") return;
    e.preventDefault();
    e.stopPropagation();
    this.open(false);
  }

  private closeOutside(e: Event): void {
    if (this.isOpen && !e.composedPath().includes(this.el)) {
      this.el.hidden = true;
    }
  }
}
