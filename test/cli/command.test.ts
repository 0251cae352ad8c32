// bin/webmail-log.js run as the installed command: through its own first lines, a shell's,
// which start Node on the same file without NODE_EXTRA_CA_CERTS (Node 20 reads every
// certificate it names at startup; webmail-log opens no TLS connection). Linked from
// another directory, as npm links it, with arguments, stdin and the exit status passed
// through whole.

import { copyFileSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, cli, ROOT } from './run.js';

const dir = mkdtempSync(join(tmpdir(), 'webmail-log-command-'));
/** Where npm would link the command: node_modules/.bin/webmail-log, a symlink. */
const linked = join(dir, 'webmail-log');
symlinkSync(BIN, linked);

/** Node's warning when it cannot read the certificates NODE_EXTRA_CA_CERTS names. */
const CERT_WARNING = /Ignoring extra certs/;

describe('the installed command', () => {
  it('starts Node without NODE_EXTRA_CA_CERTS, which `node bin/webmail-log.js` reads', async () => {
    const env = { NODE_EXTRA_CA_CERTS: join(dir, 'no-such-bundle.pem') };
    const byNode = await cli(['--version'], { env });
    expect(byNode.stderr).toMatch(CERT_WARNING);
    const asCommand = await cli(['--version'], { env, command: linked });
    expect(asCommand).toEqual({ status: 0, stdout: byNode.stdout, stderr: '' });
    // Set and empty: Node reads nothing, and the command starts it as it is.
    expect(await cli(['--version'], { env: { NODE_EXTRA_CA_CERTS: '' }, command: linked })).toEqual({ status: 0, stdout: byNode.stdout, stderr: '' });
  });

  it('passes arguments with spaces and quotes, stdin and the exit status through', async () => {
    const log = join(dir, "every rule's log.log");
    copyFileSync(join(ROOT, 'samples/every-rule/errors.log'), log);
    const args = ['analyse', '--format', 'json', '--host', 'a "quoted" host', log];
    const byNode = await cli(args);
    expect(byNode.status).toBe(1);
    expect(JSON.parse(byNode.stdout).host).toBe('a "quoted" host');
    expect(await cli(args, { command: linked, cwd: dir })).toEqual(byNode);
    const stdin = await cli(['analyse', '--format', 'json', '-'], { command: linked, stdin: 'not a log line\n' });
    expect(stdin.status).toBe(0);
    expect(JSON.parse(stdin.stdout).summary).toMatchObject({ lines: 1, entries: 0 });
    expect(stdin.stderr).toMatch(/stdin began mid-entry: 1 line before its first entry skipped/);
  });
});
