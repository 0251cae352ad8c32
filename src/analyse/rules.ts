// The rule registry (SPEC §3): ids, default severities and one-line meanings, in the
// order of the rules table, which is also the order of findings on the same line.

export type Severity = 'off' | 'warning' | 'error';
export type Level = Exclude<Severity, 'off'>;

export type RuleId =
  | 'pair-order'
  | 'pair-same-second'
  | 'pair-incomplete'
  | 'chronological'
  | 'request-id-format'
  | 'session-consistency'
  | 'malformed';

export interface Rule {
  id: RuleId;
  severity: Level;
  summary: string;
}

export const RULES: readonly Rule[] = [
  { id: 'pair-order', severity: 'error', summary: 'within one refresh pair the remote-sync lookup precedes the local one' },
  { id: 'pair-same-second', severity: 'error', summary: 'the two lookups of one refresh pair are in different seconds' },
  { id: 'pair-incomplete', severity: 'warning', summary: 'a refresh lookup has no partner within the pairing window' },
  { id: 'chronological', severity: 'error', summary: "an entry's instant is earlier than that of the entry before it" },
  { id: 'request-id-format', severity: 'warning', summary: 'a request id is not 8 lowercase hex characters' },
  { id: 'session-consistency', severity: 'warning', summary: 'a request id shows up with another session segment than its first' },
  { id: 'malformed', severity: 'error', summary: 'an invalid header, a DB Error without its shape, or text before the first entry' },
];

export const SEVERITIES: readonly Severity[] = ['off', 'warning', 'error'];

export function isRuleId(id: string): id is RuleId {
  return RULES.some((r) => r.id === id);
}

export function isSeverity(s: string): s is Severity {
  return (SEVERITIES as readonly string[]).includes(s);
}

/** Place of a rule in the rules table. */
export function ruleOrder(id: RuleId): number {
  return RULES.findIndex((r) => r.id === id);
}

export type Severities = Record<RuleId, Severity>;

/** Each rule's default severity, with the given overrides. */
export function severities(overrides: Partial<Severities> = {}): Severities {
  const out = {} as Severities;
  for (const r of RULES) out[r.id] = overrides[r.id] ?? r.severity;
  return out;
}
