// Where the record writer keeps the last request id and segment it numbered. Sessions
// interleave, so they change at most entries; kept in the writer itself (soon in V8's old
// space), each store of a young string called V8's write barrier's stub: *short*'s ids
// and segments are young all their lives. Asked of V8 itself, in a process that may.

import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { nodeScript } from '../helpers.js';

describe('the record writer, to V8', () => {
  it('holds the last id and segment in an object still young, not in itself, once it is old', () => {
    const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
    const script = `
      const { RecordWriter } = await import(${JSON.stringify(join(dist, 'parallel/records.js'))});
      const { EntryReader } = await import(${JSON.stringify(join(dist, 'parse/entry.js'))});
      const { Assembler } = await import(${JSON.stringify(join(dist, 'parse/assembler.js'))});
      const writer = new RecordWriter();
      const reader = new EntryReader();
      const asm = new Assembler({ entry: (b, s, e, c, f, l) => writer.entry(reader.read(b, s, e, c, f, 0, l)), orphanRun: (l) => writer.orphanRun(l) });
      const line = (id, digits) => '[21-Nov-2026 10:00:00 +0100]: <' + id + '> DB Error: [1] no such table: calendars (SQL Query: SELECT 1) in /x.php on line 578 (POST /cpsess' + digits + '/x?_task=mail&_action=refresh)\\n';
      asm.push(Buffer.from(line('3fa9c2d1', '0123456789')));
      gc(); gc();
      // A batch taken by the analysing thread: the next one's entries follow.
      writer.take(asm.endFile());
      asm.push(Buffer.from(line('a08ff49b', '9876543210') + line('77aa1234', '5555555555')));
      asm.endFile();
      const own = Object.values(writer);
      const holder = own.find((v) => v !== null && typeof v === 'object' && v.id === '77aa1234');
      console.log(JSON.stringify({
        writerOld: !%InYoungGeneration(writer),
        idYoung: %InYoungGeneration(holder?.id ?? ''),
        inWriter: own.filter((v) => v === '77aa1234' || v === 'cpsess5555555555').length,
        holderYoung: holder !== undefined && %InYoungGeneration(holder),
        segment: holder?.segment ?? null,
      }));
    `;
    const r = nodeScript('records', script, ['--allow-natives-syntax', '--expose-gc'])();
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({ writerOld: true, idYoung: true, inWriter: 0, holderYoung: true, segment: 'cpsess5555555555' });
  });
});
