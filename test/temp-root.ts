// Every temporary directory a test makes (and every one the CLI it spawns makes) lands under
// one root that is removed when the run ends: without it each run left some 60 MB of
// logs, states and rotation sets behind in /tmp. os.tmpdir() reads TMPDIR at each call,
// and the test workers and the processes they spawn inherit it.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'webmail-log-test-'));
  process.env.TMPDIR = root;
  return () => rmSync(root, { recursive: true, force: true });
}
