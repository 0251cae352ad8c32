// `npm run stress`: a follower against 100 rotations of each kind logrotate does, under a
// writer of about 10,000 entries/s, a rotation every 0.3 s. Prints what was written, seen,
// lost and doubled; fails unless nothing was lost or doubled.
//
//   npm run stress                          100 rotations of each kind
//   npm run stress -- --rotations 20        fewer

import { fileURLToPath } from 'node:url';
import { markdownTable } from './table.js';
import { ROTATION_MODES, rotationTrial } from './rotation.js';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const bin = fileURLToPath(new URL('../../bin/webmail-log.js', import.meta.url));
const rows: string[][] = [];
let failed = false;
for (const mode of ROTATION_MODES) {
  const t = await rotationTrial(mode, { rotations: arg('--rotations', 100), intervalMs: arg('--interval', 300), rate: arg('--rate', 10_000), bin });
  if (t.lost > 0 || t.doubled > 0 || t.seen !== t.written) failed = true;
  rows.push([mode, String(t.rotations), t.written.toLocaleString('en-US'), t.seen.toLocaleString('en-US'), String(t.lost), String(t.doubled), (t.written / t.seconds).toFixed(0)]);
  process.stdout.write(`${mode}: ${t.written} written, ${t.seen} seen, ${t.lost} lost, ${t.doubled} doubled\n`);
}
process.stdout.write('\n' + markdownTable(['rotation', 'rotations', 'written', 'seen', 'lost', 'doubled', 'entries/s'], rows) + '\n');
process.stdout.write(failed ? 'LOSS or DOUBLES: see above\n' : '0 lost and 0 doubled in every mode\n');
process.exitCode = failed ? 1 : 0;
