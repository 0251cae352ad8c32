// Memory per distinct request id on a stream: a follower of a busy server for months
// sees millions of sessions. Streams `count` entries of distinct request ids (one login
// each: a refresh pair) through stdin and reads the peak RSS.

import { spawnMeasured } from './measured.js';

export async function idsOnStream(count: number): Promise<{ ids: number; rssMiB: number }> {
  const child = spawnMeasured(['analyse', '--format', 'ndjson', '-'], ['pipe', 'ignore', 'ignore']);
  let stats = '';
  (child.stdio[3] as NodeJS.ReadableStream).on('data', (d) => (stats += d));
  const done = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const stdin = child.stdin!;
  const base = Date.UTC(2026, 0, 1) / 1000;
  for (let i = 0; i < count; ) {
    let chunk = '';
    for (let k = 0; k < 2000 && i < count; k++, i++) {
      // A new login every second of log time: about 12 days for a million (a busy server takes months).
      const t = new Date((base + i) * 1000);
      const stamp = `[${String(t.getUTCDate()).padStart(2, '0')}-${['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][t.getUTCMonth()]}-${t.getUTCFullYear()} ${t.toISOString().slice(11, 19)} +0000]`;
      const id = i.toString(16).padStart(8, '0');
      const seg = `cpsess${String(1_000_000_000 + i)}`;
      for (const table of ['calendars', 'caldav_calendars']) {
        chunk += `${stamp}: <${id}> DB Error: [1] no such table: ${table} (SQL Query: SELECT *, calendar_id AS id FROM ${table} WHERE user_id = '1' ORDER BY name) in /usr/share/roundcube/program/lib/Roundcube/rcube_db.php on line 578 (POST /${seg}/3rdparty/roundcube/index.php?_task=mail&_action=refresh)\n`;
      }
    }
    if (!stdin.write(chunk)) await new Promise((r) => stdin.once('drain', r));
  }
  stdin.end();
  await done;
  const s = JSON.parse(stats.trim());
  return { ids: count, rssMiB: s.maxRssKiB / 1024 };
}
