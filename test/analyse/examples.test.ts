// Every rule and every diagnosis carries an example log excerpt (lnav and fail2ban keep
// sample lines with each pattern): each example, run through the checker, fires its own id.

import { describe, expect, it } from 'vitest';
import { KNOWLEDGE } from '../../src/analyse/knowledge.js';
import { RULE_IDS, RULES } from '../../src/analyse/rules.js';
import { check, log } from '../helpers.js';

describe('the rules table', () => {
  it('has one row per rule id, in the order of the SPEC table, and names that are not the ids', () => {
    expect(RULES.map((r) => r.id)).toEqual([...RULE_IDS]);
    for (const r of RULES) expect(r.name.toLowerCase(), r.id).not.toBe(r.id.toLowerCase());
  });

  for (const rule of RULES) {
    it(`${rule.id}: its example breaks it`, () => {
      const c = check(log(...rule.example));
      expect(c.violations.map((f) => f.rule)).toContain(rule.id);
    });
  }
});

describe('the knowledge table', () => {
  for (const k of KNOWLEDGE) {
    for (const [i, example] of k.example.entries()) {
      it(`${k.id}: example ${i + 1} of ${k.example.length} is diagnosed as it`, () => {
        // calendar-tables-missing is both tables at once: its example is one log.
        const lines = k.id === 'calendar-tables-missing' ? k.example : [example];
        const c = check(log(...lines));
        expect(c.summary.diagnosis.map((d) => d.id)).toContain(k.id);
      });
    }
  }

  it('gives the fix of the backend seen, not the others', () => {
    const mysql = KNOWLEDGE.find((k) => k.id === 'database-locked')!.example[1];
    const d = check(log(mysql)).summary.diagnosis.find((x) => x.id === 'database-locked')!;
    expect(d.fix.join(' ')).toContain('INNODB');
    expect(d.fix.join(' ')).not.toContain('.rcube.db');
  });
});
