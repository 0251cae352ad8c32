// Bundles the built program (dist/, tsc's output) into dist/bundle: the entry that
// bin/webmail-log.js imports and the parsing worker it starts, with their shared code in
// chunks beside them (a worker is found as ./worker.js next to the code that starts it).
// Run by npm's lifecycle after tsc (prepare, build, pretest, bench, stress). The bundle is
// made from tsc's JavaScript, not from the sources, so it runs the very code the tests run.

import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { constify } from './constify.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
// Chunks are named by their content: a new build leaves none of an old one behind.
rmSync(`${root}dist/bundle`, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: { 'webmail-log': 'dist/entry.js', worker: 'dist/parallel/worker.js' },
  outdir: 'dist/bundle',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: '[name]-[hash]',
  // commander is CommonJS: its require() of Node's modules needs a require in ES modules.
  banner: { js: "import { createRequire as __webmailLogRequire } from 'node:module'; const require = __webmailLogRequire(import.meta.url);" },
  // Loaded only by a run that serves /metrics, from node_modules, as it is.
  external: ['prom-client'],
  logLevel: 'warning',
});
// esbuild writes top-level constants as `var`; V8 compiles a `const` better (constify.mjs).
for (const name of readdirSync(`${root}dist/bundle`).filter((n) => n.endsWith('.js'))) {
  const path = `${root}dist/bundle/${name}`;
  writeFileSync(path, constify(readFileSync(path, 'utf8')).text);
}
