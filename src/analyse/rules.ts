// The rule registry (SPEC §3): one row per rule, in the order of the rules table, which
// is also the order of violations on the same line. A row holds everything said of a rule:
// its default severity, its one-line meaning, the long texts SARIF viewers and `explain`
// show, and an example log excerpt that a test runs through the checker.

export type Severity = 'off' | 'warning' | 'error';
export type Level = Exclude<Severity, 'off'>;

export const RULE_IDS = ['pair-order', 'pair-same-second', 'pair-incomplete', 'chronological', 'request-id-format', 'session-consistency', 'malformed'] as const;
export type RuleId = (typeof RULE_IDS)[number];

export interface Rule {
  id: RuleId;
  severity: Level;
  summary: string;
  /** A name for tools that want one (SARIF reportingDescriptor.name): never the id itself. */
  name: string;
  description: string;
  help: string;
  /** A log excerpt that breaks the rule (a test checks that it does). */
  example: string[];
}

const H = (t: string, id = '3fa9c2d1') => `[21-Nov-2026 ${t} +0100]: <${id}> `;
const REFRESH = '(POST /cpsess0123456789/3rdparty/roundcube/index.php?_task=mail&_action=refresh)';
const LOOKUP = (t: string, table: string, id?: string) =>
  `${H(t, id)}DB Error: [1] no such table: ${table} (SQL Query: SELECT *, calendar_id AS id FROM ${table} WHERE user_id = '1' ORDER BY name) in /usr/share/roundcube/program/lib/Roundcube/rcube_db.php on line 578 ${REFRESH}`;

export const RULES: readonly Rule[] = [
  {
    id: 'pair-order',
    severity: 'error',
    summary: 'within one refresh pair the remote-sync lookup precedes the local one',
    name: 'PairOrder',
    description:
      'On each mailbox refresh the service looks up the local calendar list (calendars) first and the remote-sync list (caldav_calendars) second. A refresh pair whose remote-sync lookup came first means the log is not in the order the service writes it.',
    help: 'Check whether the log was reassembled from several sources or rewritten. Reported at the second lookup of the pair.',
    example: [LOOKUP('10:01:07', 'caldav_calendars'), LOOKUP('10:01:07', 'calendars')],
  },
  {
    id: 'pair-same-second',
    severity: 'error',
    summary: 'the two lookups of one refresh pair are in different seconds',
    name: 'PairSameSecond',
    description: 'The two lookups of one refresh run in one request and are logged in the same second. A pair split across seconds points at a stalled request or a log written late.',
    help: 'Look for a slow or locked database (SQLite "database is locked") around that time. Reported at the second lookup of the pair.',
    example: [LOOKUP('10:02:07', 'calendars'), LOOKUP('10:02:09', 'caldav_calendars')],
  },
  {
    id: 'pair-incomplete',
    severity: 'warning',
    summary: 'a refresh lookup has no partner within the pairing window',
    name: 'PairIncomplete',
    description:
      'A refresh lookup with no partner from the other collection within the pairing window (default 30 s), before another lookup of its own side, or before the log ends.',
    help: 'A refresh that logged only one lookup: one calendar table exists and the other does not, or the log was cut. Reported at the lone lookup.',
    example: [LOOKUP('10:03:07', 'calendars'), LOOKUP('10:04:07', 'calendars'), LOOKUP('10:04:07', 'caldav_calendars')],
  },
  {
    id: 'chronological',
    severity: 'error',
    summary: "an entry's instant is earlier than that of the entry before it",
    name: 'ChronologicalOrder',
    description: 'Entries are appended in time order. An entry whose instant is earlier than that of the entry before it (compared as instants, so DST changes are no step back) breaks it.',
    help: 'Check the order of the inputs (a rotation set is read oldest first), clock changes on the server, and logs merged from several hosts.',
    example: [LOOKUP('10:04:07', 'caldav_calendars'), `${H('10:03:50')}IMAP Error: Login failed for carol@example.test against 127.0.0.1 from 203.0.113.9. AUTHENTICATE PLAIN: Authentication failed. in /usr/share/roundcube/program/lib/Roundcube/rcube_imap.php on line 211 ${REFRESH}`],
  },
  {
    id: 'request-id-format',
    severity: 'warning',
    summary: 'a request id is not 8 lowercase hex characters',
    name: 'RequestIdFormat',
    description: 'A request id should be 8 lowercase hex characters. Servers running PHP with session.sid_bits_per_character 5 or 6 write ids from 0-9a-v or 0-9a-zA-Z,-.',
    help: 'If the server uses another session id alphabet, set requestIdAlphabet (php5, php6) in webmail-log.config.json. Reported once per id.',
    example: [LOOKUP('10:05:07', 'calendars', 'ns0tbuc0')],
  },
  {
    id: 'session-consistency',
    severity: 'warning',
    summary: 'a request id shows up with another session segment than its first',
    name: 'SessionConsistency',
    description: 'All requests of one login session carry the same session segment (cpsess…) in their path. A request id seen with another segment than its first one mixes two sessions.',
    help: 'Look for a session id reused across cPanel sessions. Reported once per further segment, at its first entry.',
    example: [LOOKUP('10:05:07', 'calendars'), LOOKUP('10:06:07', 'calendars').replace('cpsess0123456789', 'cpsess5550003333')],
  },
  {
    id: 'malformed',
    severity: 'error',
    summary: 'an invalid header, a DB Error without its shape, or text before the first entry',
    name: 'MalformedEntry',
    description:
      'An entry start whose date, time or zone is invalid; a DB Error entry without the shape "[code] message (SQL Query: query) in file on line N (METHOD path)"; or lines before the first entry of a file.',
    help: 'Usually a truncated or corrupted log, or lines written by another program. Malformed entries take part in no other rule.',
    example: ['[31-Apr-2026 10:07:07 +0100]: <3fa9c2d1> DB Error: [1] no such table: calendars (SQL Query: x) in f on line 1 (POST /x)'],
  },
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
