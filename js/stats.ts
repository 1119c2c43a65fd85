/** Records in words: the compact bests of the status line, the statistics table, the new-best line of the win
 * banner. */

import type { Labels, RecordsState, StatsRow } from "./types";
import { countPhrase, word } from "./words";

/** mm:ss (h:mm:ss past an hour). */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const mm = String(Math.floor((s % 3600) / 60)).padStart(2, "0");
  const ss = String(s % 60).padStart(2, "0");
  return s >= 3600 ? `${Math.floor(s / 3600)}:${mm}:${ss}` : `${mm}:${ss}`;
}

const DASH = "\u2013";

/** "Best 645 · Streak 2", or "" when there is nothing to say (or records are off). */
export function bestsText(records: RecordsState | null | undefined, labels: Labels): string {
  if (!records || !records.enabled) return "";
  const parts: string[] = [];
  if (records.best_score != null) {
    parts.push(`${word(labels, "best")} ${records.best_score}`);
  }
  if ((records.current_streak ?? 0) > 0) parts.push(`${word(labels, "streak")} ${records.current_streak}`);
  return parts.join(" \u00b7 ");
}

/** "New personal best: best score, fastest win", or "" when the game set none. */
export function newRecordText(records: RecordsState | null | undefined, labels: Labels): string {
  const names = records?.new ?? [];
  if (!names.length) return "";
  const head = word(labels, "new-record").replace(/\s*[:\uff1a]\s*$/, "");
  return `${head}: ${names.map((n) => word(labels, `record.${n}`)).join(", ")}`;
}

/** The name of a rule set: its `preset.<key>` label, or the key itself for custom rules. */
export function rulesName(key: string, labels: Labels): string {
  return labels[`preset.${key}`] ?? key;
}

const COLUMNS: [string, (row: StatsRow, labels: Labels) => string][] = [
  ["rules", (r, l) => rulesName(r.rules_key, l)],
  ["draw", (r, l) => countPhrase(l, "draw-n", r.draw, "draw")],
  ["played", (r) => String(r.played)],
  ["won-count", (r) => String(r.won)],
  ["win-rate", (r) => (r.win_rate == null ? DASH : `${Math.round(r.win_rate * 100)}%`)],
  ["best-score", (r) => num(r.best_score)],
  ["fewest-moves", (r) => num(r.fewest_moves)],
  ["fastest-win", (r) => (r.fastest_win == null ? DASH : clock(r.fastest_win))],
  ["streak", (r) => String(r.current_streak ?? 0)],
  ["longest-streak", (r) => String(r.longest_streak ?? 0)],
];

function num(value: number | null | undefined): string {
  return value == null ? DASH : String(value);
}

/** The statistics table (one row per rule set and draw count), or an empty-state line. */
export function statsTable(doc: Document, rows: StatsRow[], labels: Labels): HTMLElement {
  if (!rows.length) {
    const empty = doc.createElement("p");
    empty.className = "pl-empty";
    empty.textContent = word(labels, "no-stats");
    return empty;
  }
  const scroller = doc.createElement("div");
  scroller.className = "pl-table-scroll";
  const table = doc.createElement("table");
  table.className = "pl-stats";
  const head = table.createTHead().insertRow();
  for (const [key] of COLUMNS) {
    const th = doc.createElement("th");
    th.scope = "col";
    th.textContent = word(labels, key);
    th.dataset.col = key;
    head.append(th);
  }
  const body = table.createTBody();
  for (const row of rows) {
    const tr = body.insertRow();
    COLUMNS.forEach(([key, value], i) => {
      const cell = doc.createElement(i === 0 ? "th" : "td");
      if (i === 0) (cell as HTMLTableCellElement).scope = "row";
      cell.dataset.col = key;
      cell.textContent = value(row, labels);
      tr.append(cell);
    });
  }
  scroller.append(table);
  return scroller;
}
