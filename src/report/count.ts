// A count as people read it: digits grouped by commas (12,345).

/**
 * `value.toLocaleString('en-US')`, without it for whole numbers: the first call loads
 * ICU's number formats, 15 ms of every run that prints a text or HTML report.
 */
export function count(value: number): string {
  if (!Number.isSafeInteger(value) || Object.is(value, -0)) return value.toLocaleString('en-US');
  const digits = String(Math.abs(value));
  const head = digits.length % 3 || 3;
  let out = digits.slice(0, head);
  for (let i = head; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return value < 0 ? `-${out}` : out;
}
