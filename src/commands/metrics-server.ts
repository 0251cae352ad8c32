// --metrics-listen HOST:PORT: a live /metrics endpoint (prom-client, the standard Node
// library) for a follower or a stream. The families are those of the textfile report;
// their values are read from the analysis's running counts when Prometheus scrapes, so
// a scrape costs the analysis nothing but that read. prom-client's process metrics come
// along.

import { createServer, type Server } from 'node:http';
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { Counts } from '../analyse/analyser.js';
import type { Severities } from '../analyse/rules.js';
import { OutputError, UsageError } from '../errors.js';
import { FAMILIES, samples, type FamilyKey } from '../report/metrics.js';

/** `127.0.0.1:9101`, `[::1]:9101`, `:9101` (every address). */
export function parseListen(text: string): { host: string | undefined; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:]*)):(\d{1,5})$/.exec(text);
  const port = m ? Number(m[3]) : NaN;
  if (!m || port < 1 || port > 65535) throw new UsageError(`--metrics-listen takes HOST:PORT (127.0.0.1:9101), not "${text}"`);
  const host = m[1] ?? m[2];
  return { host: host === '' ? undefined : host, port };
}

function listenReason(err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case 'EADDRINUSE':
      return 'the address is in use';
    case 'EADDRNOTAVAIL':
      return 'no such address on this machine';
    case 'EACCES':
      return 'permission denied (a port below 1024?)';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'no such host';
    default:
      return err.code ?? err.message;
  }
}

export interface MetricsServer {
  close(): Promise<void>;
}

export async function serveMetrics(listen: string, counts: () => Counts, severities: Severities, log: string): Promise<MetricsServer> {
  const { host, port } = parseListen(listen);
  const started = Date.now() / 1000;
  const register = new Registry();
  collectDefaultMetrics({ register });
  // One read of the counts serves every family of a scrape.
  let current: ReturnType<typeof samples> | null = null;
  const read = () => (current ??= samples(counts(), severities, { timestamp: Date.now() / 1000, durationSeconds: Date.now() / 1000 - started, success: true }, log));
  for (const key of Object.keys(FAMILIES) as FamilyKey[]) {
    const f = FAMILIES[key];
    const labelNames = [...f.labels, 'log'];
    if (f.type === 'counter') {
      new Counter({
        name: f.name,
        help: f.help,
        labelNames,
        registers: [register],
        collect() {
          this.reset();
          for (const s of read()[key]) this.inc(s.labels, s.value);
        },
      });
    } else {
      new Gauge({
        name: f.name,
        help: f.help,
        labelNames,
        registers: [register],
        collect() {
          this.reset();
          for (const s of read()[key]) this.set(s.labels, s.value);
        },
      });
    }
  }
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '/').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('webmail-log serves /metrics\n');
      return;
    }
    current = null;
    register.metrics().then(
      (text) => res.writeHead(200, { 'content-type': register.contentType }).end(text),
      (err: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`${err.message}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => reject(new OutputError(`cannot listen on ${listen}: ${listenReason(err)}`)));
    server.listen(port, host, () => resolve());
  });
  // Scrapes must not keep a stopped run alive.
  server.unref();
  return { close: () => new Promise((resolve) => server.close(() => resolve())) };
}
