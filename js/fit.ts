/** Fitting the board to its screen, measured in the browser: menus and panels placed inside the widget (and the
 * visible part of the window), a toolbar that trades labels for icons instead of wrapping, and cards sized to the
 * output's width and the window's height. Pure layout: no words, no rules. */

/** A box in client coordinates. */
export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

const MARGIN = 4;

/** The part of `box` inside `limit` (both in client coordinates). */
export function intersect(box: Box, limit: Box): Box {
  return {
    left: Math.max(box.left, limit.left),
    top: Math.max(box.top, limit.top),
    right: Math.min(box.right, limit.right),
    bottom: Math.min(box.bottom, limit.bottom),
  };
}

/** Where a popup of `width` goes along one axis: at `start` if it fits before `max`, else flipped to end at
 * `end`, else clamped into [`min`, `max`]. */
export function place(start: number, end: number, width: number, min: number, max: number): number {
  if (start + width <= max) return Math.max(min, start);
  if (end - width >= min) return Math.min(end - width, max - width);
  return Math.max(min, max - width);
}

/** The panel the board scrolls in (the notebook's panel in JupyterLab and Notebook 7), or null for the window: the
 * outermost ancestor that scrolls. Not the nearest: an output area whose `overflow-x` is set computes
 * `overflow-y: auto` too, yet takes its height from the board, and fitting to it would shrink the cards to nothing. */
export function scroller(el: HTMLElement): HTMLElement | null {
  const win = el.ownerDocument.defaultView;
  let found: HTMLElement | null = null;
  for (let node = el.parentElement; node && node !== el.ownerDocument.body; node = node.parentElement) {
    const style = win?.getComputedStyle(node);
    if (style && /(auto|scroll|overlay)/.test(style.overflowY) && node.clientHeight > 0) found = node;
  }
  return found;
}

/** The box of the screen where the board can be seen: the window, cut to the scrolling panel it lives in. */
export function visibleBox(el: HTMLElement): Box {
  const win = el.ownerDocument.defaultView ?? window;
  const view = { left: 0, top: 0, right: win.innerWidth, bottom: win.innerHeight };
  const panel = scroller(el);
  return panel ? intersect(view, panel.getBoundingClientRect()) : view;
}

/** Places the absolutely positioned `popup` (child of `anchorParent`) under `anchor`, inside `root` and the
 * visible part of the window: it opens on the anchor's left edge, flips to its right edge, or is clamped;
 * its height is capped to the room below it (it scrolls inside). */
export function placePopup(popup: HTMLElement, anchor: HTMLElement, root: HTMLElement): void {
  popup.style.left = "0px";
  popup.style.right = "auto";
  popup.style.maxWidth = "";
  popup.style.maxHeight = "";
  const parent = (popup.offsetParent as HTMLElement | null) ?? popup.parentElement;
  if (!parent) return;
  const limit = intersect(root.getBoundingClientRect(), visibleBox(root));
  const rootBox = root.getBoundingClientRect();
  const left = Math.max(rootBox.left, limit.left) + MARGIN;
  const right = Math.min(rootBox.right, limit.right) - MARGIN;
  const width = Math.min(popup.getBoundingClientRect().width, right - left);
  popup.style.maxWidth = `${Math.max(0, right - left)}px`;
  const a = anchor.getBoundingClientRect();
  const x = place(a.left, a.right, width, left, right);
  popup.style.left = `${x - parent.getBoundingClientRect().left}px`;
  const top = popup.getBoundingClientRect().top;
  const bottom = Math.min(rootBox.bottom, limit.bottom) - MARGIN;
  popup.style.maxHeight = `${Math.max(80, bottom - top)}px`;
}

/** Keeps a panel (absolutely positioned in `root`) inside `root` and the visible part of the window. */
export function placePanel(panel: HTMLElement, root: HTMLElement, top: number): void {
  const rootBox = root.getBoundingClientRect();
  const limit = intersect(rootBox, visibleBox(root));
  const start = Math.max(top, limit.top - rootBox.top + MARGIN);
  panel.style.top = `${start}px`;
  panel.style.maxWidth = `${Math.max(0, rootBox.width - 2 * MARGIN - 4)}px`;
  panel.style.maxHeight = `${Math.max(120, limit.bottom - rootBox.top - start - MARGIN)}px`;
}

/** How much of its labels the toolbar shows: all, all but the secondary ones, none (icons only). */
export const BAR_LEVELS = ["pl-bar-full", "pl-bar-short", "pl-bar-icons"] as const;

/** The width the toolbar's items need on one row: their widths, the gaps between them and the padding (open
 * menus, positioned inside the bar, do not count; the spacer counts as nothing). */
export function barNeeds(bar: HTMLElement): number {
  const win = bar.ownerDocument.defaultView ?? window;
  const style = win.getComputedStyle(bar);
  const items = ([...bar.children] as HTMLElement[]).filter(
    (c) => !c.classList.contains("pl-bar-spacer") && c.getClientRects().length > 0,
  );
  const gap = parseFloat(style.columnGap) || 0;
  const widths = items.reduce((sum, c) => sum + c.getBoundingClientRect().width, 0);
  return widths + gap * Math.max(0, items.length - 1) + parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
}

/** Shows as many toolbar labels as fit on one row: tries each level until the items fit the bar's width. */
export function fitBar(bar: HTMLElement): number {
  if (bar.clientWidth <= 0) return BAR_LEVELS.indexOf(BAR_LEVELS.find((c) => bar.classList.contains(c)) ?? "pl-bar-full");
  for (let level = 0; level < BAR_LEVELS.length; level++) {
    for (const cls of BAR_LEVELS) bar.classList.toggle(cls, cls === BAR_LEVELS[level]);
    if (barNeeds(bar) <= bar.clientWidth + 0.5) return level;
  }
  return BAR_LEVELS.length - 1;
}

/** Card height per width, and the height of the table in card widths beyond its padding: the top row, the gap,
 * and a column of one card plus the fan the board keeps room for (six face-down and four face-up cards, deeper
 * than any column of the shipped lessons; a longer column makes the board taller below, it never moves it). */
export const CARD_RATIO = 1.4;
/** The fan (in card widths) the board keeps room for below a column's first card. */
export const FAN_UNITS = 1.7;
export const TABLE_UNITS = CARD_RATIO + 0.22 + CARD_RATIO + FAN_UNITS;

/** The card width (px) at which the board's fixed parts (`chrome` px) and its table fit `height` px, with room for
 * a fan of `fan` card widths (a presenter's board keeps its deepest column in view). */
export function cardWidthFor(height: number, chrome: number, padding: number, fan = FAN_UNITS): number {
  return Math.floor((height - chrome - padding) / (TABLE_UNITS - FAN_UNITS + Math.max(FAN_UNITS, fan)));
}
