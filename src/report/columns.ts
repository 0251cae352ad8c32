// A table that fits the terminal: columns are dropped, least needed first, and then the
// shrinkable ones are clipped, until the table is no wider than the width given. Cells
// are plain text (widths are counted on it) with an optional style applied after.

import type { ChalkInstance } from 'chalk';

export interface Column {
  head: string;
  /** Right-aligned (numbers). */
  right?: boolean;
  /** Kept longer than columns with a lower one; 0 drops first. */
  keep: number;
  /** May be clipped with … down to this many characters. */
  shrinkTo?: number;
}

export interface Cell {
  text: string;
  style?: (text: string) => string;
}

const GAP = '  ';

function clip(text: string, width: number): string {
  return [...text].length > width ? [...text].slice(0, Math.max(1, width - 1)).join('') + '…' : text;
}

function len(text: string): number {
  return [...text].length;
}

/** The table as lines, `indent` before each, no line longer than `width` where it can be helped. */
export function fitTable(c: ChalkInstance, columns: readonly Column[], rows: readonly Cell[][], width: number, indent = '  '): string[] {
  let shown = columns.map((_, i) => i);
  const natural = columns.map((col, i) => Math.max(len(col.head), ...rows.map((r) => len(r[i].text))));
  const total = (cols: number[], widths: number[]) => indent.length + cols.reduce((a, i) => a + widths[i], 0) + GAP.length * (cols.length - 1);
  const widths = [...natural];
  // Drop the least needed columns while the rest is too wide, keeping at least one.
  const byNeed = [...shown].sort((a, b) => columns[a].keep - columns[b].keep || b - a);
  for (const i of byNeed) {
    if (total(shown, widths) <= width || shown.length === 1) break;
    // A column that shrinking alone could make fit is not dropped.
    const slack = shown.reduce((a, j) => a + (columns[j].shrinkTo !== undefined ? Math.max(0, widths[j] - Math.max(columns[j].shrinkTo!, len(columns[j].head))) : 0), 0);
    if (total(shown, widths) - slack <= width) break;
    shown = shown.filter((j) => j !== i);
  }
  // Then clip the shrinkable columns, widest first.
  for (let over = total(shown, widths) - width; over > 0; over = total(shown, widths) - width) {
    const candidates = shown.filter((j) => columns[j].shrinkTo !== undefined && widths[j] > Math.max(columns[j].shrinkTo!, len(columns[j].head)));
    if (candidates.length === 0) break;
    const j = candidates.reduce((a, b) => (widths[b] > widths[a] ? b : a));
    widths[j] -= Math.min(over, widths[j] - Math.max(columns[j].shrinkTo!, len(columns[j].head)));
  }
  const line = (cells: Cell[], head: boolean) =>
    (
      indent +
      shown
        .map((i, k) => {
          const text = clip(cells[i].text, widths[i]);
          const pad = ' '.repeat(widths[i] - len(text));
          const styled = head ? c.bold(text) : cells[i].style ? cells[i].style!(text) : text;
          if (columns[i].right) return pad + styled;
          return k === shown.length - 1 ? styled : styled + pad;
        })
        .join(GAP)
    ).trimEnd();
  return [line(columns.map((col) => ({ text: col.head })), true), ...rows.map((r) => line(r, false))];
}
