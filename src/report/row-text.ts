// A request-id row as JSON text, written by hand: a report may list a hundred thousand
// rows, and JSON.stringify with an indent (then re-indented) cost several microseconds
// each. The text is byte for byte what jsonText(row, 2), nested one list deep, or
// jsonText(row) writes (a test holds it to that); a row of any other shape is left to them.

import { MadeRow, type RequestIdRow } from '../analyse/aggregates.js';
import { jsonText } from './json-text.js';

const ROW_KEYS = ['id', 'sessionSegments', 'entries', 'refreshPairs', 'first', 'last', 'refreshCadence'];
const CADENCE_KEYS = ['refreshes', 'medianGapSeconds', 'longestGapSeconds'];

function keysAre(o: object, keys: readonly string[]): boolean {
  let i = 0;
  for (const k in o) if (k !== keys[i++]) return false;
  return i === keys.length;
}

/** The rows the report makes: these keys in this order, strings and numbers where due. */
function isPlainRow(r: RequestIdRow): boolean {
  return (
    keysAre(r, ROW_KEYS) &&
    typeof r.id === 'string' &&
    typeof r.first === 'string' &&
    typeof r.last === 'string' &&
    typeof r.entries === 'number' &&
    typeof r.refreshPairs === 'number' &&
    Array.isArray(r.sessionSegments) &&
    r.sessionSegments.every((s) => typeof s === 'string') &&
    typeof r.refreshCadence === 'object' &&
    r.refreshCadence !== null &&
    keysAre(r.refreshCadence, CADENCE_KEYS) &&
    typeof r.refreshCadence.refreshes === 'number' &&
    (r.refreshCadence.medianGapSeconds === null || typeof r.refreshCadence.medianGapSeconds === 'number') &&
    (r.refreshCadence.longestGapSeconds === null || typeof r.refreshCadence.longestGapSeconds === 'number')
  );
}

/** A number (or null) as JSON writes it. */
function num(n: number | null): string {
  return n !== null && Number.isFinite(n) ? String(n) : 'null';
}

/**
 * The row's JSON: with `indent`, as an element of a list at the document's first level
 * (JSON.stringify(doc, null, 2)); without, on one line.
 */
export function rowText(r: RequestIdRow, indent: boolean): string {
  // A row the analysis made has the shape; one read back from a report is checked.
  const made = r instanceof MadeRow;
  if (!made && !isPlainRow(r)) return indent ? jsonText(r, 2).replace(/\n/g, '\n    ') : jsonText(r);
  const c = r.refreshCadence;
  const first = made ? '"' + r.first + '"' : jsonText(r.first);
  const last = made ? '"' + r.last + '"' : jsonText(r.last);
  if (!indent) {
    let segments = '';
    for (let i = 0; i < r.sessionSegments.length; i++) segments += (i === 0 ? '' : ',') + jsonText(r.sessionSegments[i]);
    return (
      `{"id":${jsonText(r.id)},"sessionSegments":[${segments}],"entries":${num(r.entries)},"refreshPairs":${num(r.refreshPairs)},` +
      `"first":${first},"last":${last},"refreshCadence":{"refreshes":${num(c.refreshes)},` +
      `"medianGapSeconds":${num(c.medianGapSeconds)},"longestGapSeconds":${num(c.longestGapSeconds)}}}`
    );
  }
  let segments = '[]';
  if (r.sessionSegments.length > 0) {
    segments = '[';
    for (let i = 0; i < r.sessionSegments.length; i++) segments += (i === 0 ? '\n        ' : ',\n        ') + jsonText(r.sessionSegments[i]);
    segments += '\n      ]';
  }
  return (
    `{\n      "id": ${jsonText(r.id)},\n      "sessionSegments": ${segments},\n      "entries": ${num(r.entries)},\n` +
    `      "refreshPairs": ${num(r.refreshPairs)},\n      "first": ${first},\n      "last": ${last},\n` +
    `      "refreshCadence": {\n        "refreshes": ${num(c.refreshes)},\n        "medianGapSeconds": ${num(c.medianGapSeconds)},\n` +
    `        "longestGapSeconds": ${num(c.longestGapSeconds)}\n      }\n    }`
  );
}
