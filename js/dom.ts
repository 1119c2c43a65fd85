/** Small DOM builders shared by the board's parts (toolbar, lesson box, record box). */

/** A new element of `tag` with `className`. */
export function node(doc: Document, tag: string, className: string): HTMLElement {
  const el = doc.createElement(tag);
  el.className = className;
  return el;
}

/** A plain button (never a form submit) with `className`, named for its handler by `data-<key>="<action>"`. */
export function button(doc: Document, className: string, key: string, action: string): HTMLButtonElement {
  const b = doc.createElement("button");
  b.type = "button";
  b.className = className;
  b.dataset[key] = action;
  return b;
}
