/** Card faces and backs drawn with SVG and CSS (no image files), and the words that name a card. */

import { RANKS, type Labels, type Suit } from "./types";
import { CARD_PATTERN } from "./vocabulary";

const SVG_NS = "http://www.w3.org/2000/svg";

/** Suit shapes in a 100 x 100 box. */
const SUIT_SHAPES: Record<Suit, string> = {
  H: '<path d="M50 90 L12 47 A20.5 20.5 0 0 1 50 25 A20.5 20.5 0 0 1 88 47 Z"/>',
  D: '<path d="M50 5 L85 50 L50 95 L15 50 Z"/>',
  S:
    '<path d="M50 8 L88 53 A20.5 20.5 0 0 1 50 75 A20.5 20.5 0 0 1 12 53 Z"/>' +
    '<path d="M50 62 Q49 84 33 94 H67 Q51 84 50 62 Z"/>',
  C:
    '<circle cx="50" cy="29" r="19"/><circle cx="28" cy="59" r="19"/><circle cx="72" cy="59" r="19"/>' +
    '<path d="M44 45 H56 V60 H44 Z"/><path d="M50 55 Q49 84 33 94 H67 Q51 84 50 55 Z"/>',
};


export interface ParsedCard {
  rank: number;
  suit: Suit;
  red: boolean;
}

/** Reads a card's code as the protocol writes it (`5H`, `TD`); null when it is not one. */
export function parseCard(id: string): ParsedCard | null {
  if (!CARD_PATTERN.test(id)) return null;
  const rank = RANKS.indexOf(id[0]) + 1;
  const suit = id[1] as Suit;
  return { rank, suit, red: suit === "D" || suit === "H" };
}

/** The rank as printed in a corner: A 2 .. 10 J Q K. */
export function rankText(rank: number): string {
  return rank === 1 ? "A" : rank === 10 ? "10" : rank > 10 ? "JQK"[rank - 11] : String(rank);
}

/** An SVG element with the suit's shape, coloured by `currentColor`. */
export function suitSvg(suit: Suit, className: string): SVGSVGElement {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("class", className);
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  svg.innerHTML = SUIT_SHAPES[suit];
  return svg;
}

/** The spoken name of a card ("5 of hearts"), in the words of `labels` (a missing suit or court name shows its
 * key, like every other missing label). */
export function cardName(id: string, labels: Labels): string {
  const card = parseCard(id);
  if (!card) return id;
  const court = card.rank === 1 || card.rank > 10;
  const rank = labels[`rank.${card.rank}`] ?? (court ? `rank.${card.rank}` : String(card.rank));
  const suit = labels[`suit.${card.suit}`] ?? `suit.${card.suit}`;
  const template = labels.of ?? "{rank} {suit}";
  return template.replace("{rank}", rank).replace("{suit}", suit);
}

function span(className: string, text?: string): HTMLSpanElement {
  const el = document.createElement("span");
  el.className = className;
  if (text !== undefined) el.textContent = text;
  return el;
}

/** The letters the faces show for the Ace and the court cards: the language's own (`face.1`, `face.11` ..
 * `face.13` in `labels`, Dutch B V K A, Swedish Kn D K E) when `local`, else A J Q K. */
export function faceLetters(labels: Labels, local: boolean): Record<number, string> {
  const letters: Record<number, string> = {};
  for (const rank of [1, 11, 12, 13]) {
    const own = local ? labels[`face.${rank}`] : undefined;
    letters[rank] = typeof own === "string" && own.length > 0 && own.length <= 3 ? own : rankText(rank);
  }
  return letters;
}

function corner(card: ParsedCard, className: string, rank: string): HTMLSpanElement {
  const el = span(`pl-idx ${className}`);
  // a rank of two letters (Swedish Kn) is set narrower: its corner takes no more room than a 10's
  const wide = rank.length > 1 && !/^\d+$/.test(rank);
  el.append(span(wide ? "pl-rank pl-rank-wide" : "pl-rank", rank), suitSvg(card.suit, "pl-suit"));
  return el;
}

/** Fills a card element with the face of `id`: corner indices, a big centre mark; `letters` (from
 * `faceLetters`) name the Ace and the court cards. */
export function drawFace(el: HTMLElement, id: string, letters: Record<number, string> = {}): void {
  const card = parseCard(id);
  el.replaceChildren();
  if (!card) return;
  const rank = letters[card.rank] ?? rankText(card.rank);
  el.classList.add(card.red ? "pl-red" : "pl-black");
  const centre = span(card.rank > 10 ? "pl-centre pl-court" : card.rank === 1 ? "pl-centre pl-ace" : "pl-centre");
  if (card.rank > 10) centre.append(span("pl-court-letter", rank));
  centre.append(suitSvg(card.suit, "pl-pip"));
  el.append(corner(card, "pl-tl", rank), centre, corner(card, "pl-br", rank));
}

/** Fills a card element with the back. */
export function drawBack(el: HTMLElement): void {
  el.replaceChildren(span("pl-back-pattern"));
}
