// `--format html[=FILE]`: one self-contained page an operator can open from disk, attach
// to a ticket or publish from CI: no fetch, no external script, style, font or image. The
// report is rendered here, as HTML, with every text from the log escaped; a small script
// of its own (allowed by its hash in the Content-Security-Policy, and nothing else) sorts
// and filters the request-id table. Lists are capped so that the page stays small.

import { createHash } from 'node:crypto';
import type { Summary } from '../analyse/analyser.js';
import { RULES } from '../analyse/rules.js';
import { VERSION } from '../version.js';
import type { Reporter, ReportContext } from './reporter.js';
import { count as n } from './count.js';

/** Rows and items shown at the most; the page says how many more there are, and how to get them. */
const REQUEST_IDS_SHOWN = 10_000;
export const VIOLATIONS_SHOWN = 200;
const SIGNATURES_SHOWN = 100;
const NOTES_SHOWN = 100;

/** Text for HTML: every character that could open or close markup or an attribute, escaped. */
export function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '\ufffd');
}

function plural(count: number, word: string): string {
  return `${n(count)} ${count === 1 ? word : word.endsWith('y') ? `${word.slice(0, -1)}ies` : `${word}s`}`;
}

const STYLE = `
:root{--bg:#fff;--fg:#1d2330;--dim:#5d6675;--line:#dde1e8;--panel:#f5f7fa;--err:#c62828;--warn:#a86200;--ok:#2e7d32;--bar:#3b6fd6;--bar2:#8e5bd6}
@media (prefers-color-scheme:dark){:root{--bg:#14171c;--fg:#e3e6eb;--dim:#98a1ae;--line:#2b313a;--panel:#1b1f26;--err:#ef5350;--warn:#ffb74d;--ok:#81c784;--bar:#6f9cf0;--bar2:#b48cf0}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
header,main{max-width:1240px;margin:0 auto;padding:12px 20px}
header{border-bottom:1px solid var(--line)}
h1{font-size:20px;margin:4px 0}
h2{font-size:17px;margin:26px 0 8px}
h3{font-size:15px;margin:16px 0 6px}
.dim{color:var(--dim)}
.err{color:var(--err)}.warn{color:var(--warn)}.ok{color:var(--ok)}
dl.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(150px,1fr));gap:8px;margin:0}
dl.cards div{background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:8px 10px}
dl.cards dt{font-size:12px;color:var(--dim)}
dl.cards dd{margin:0;font-size:20px;font-weight:600}
table{border-collapse:collapse;width:100%;font-size:13px}
th,td{text-align:left;padding:4px 8px;border-bottom:1px solid var(--line);vertical-align:top}
th{background:var(--panel);position:sticky;top:0;cursor:pointer;user-select:none}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
.scroll{max-height:520px;overflow:auto;border:1px solid var(--line);border-radius:6px}
code,pre,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px}
pre{background:var(--panel);border:1px solid var(--line);border-radius:4px;padding:6px 8px;white-space:pre-wrap;word-break:break-all;margin:4px 0 10px}
.rule{border:1px solid var(--line);border-radius:6px;margin:10px 0;padding:4px 12px}
.rule summary{cursor:pointer;font-weight:600;padding:4px 0}
.diag{border-left:4px solid var(--warn);background:var(--panel);padding:6px 12px;margin:10px 0;border-radius:0 6px 6px 0}
.diag ol{padding-left:20px}
.cmd{display:block;background:var(--bg);border:1px solid var(--line);padding:3px 6px;margin:3px 0;white-space:pre;overflow-x:auto}
input[type=search]{width:100%;max-width:360px;padding:6px 8px;margin:6px 0;border:1px solid var(--line);border-radius:4px;background:var(--bg);color:var(--fg)}
svg{display:block;max-width:100%}
svg .b{fill:var(--bar)}svg .r{fill:var(--bar2)}svg text{fill:var(--dim);font-size:10px}
@media (max-width:640px){header,main{padding:8px 10px}dl.cards{grid-template-columns:repeat(2,1fr)}td,th{padding:3px 4px}.wide{display:none}}
@media print{th{position:static}.scroll{max-height:none;overflow:visible}input{display:none}details{display:block}details>*{display:block}}
`.trim();

// Sorts the request-id table by a column, and filters it by a word; no network, no eval.
const SCRIPT = `
(function(){
document.documentElement.setAttribute('data-script','ran');
var t=document.getElementById('ids');if(!t)return;
var body=t.tBodies[0],rows=Array.prototype.slice.call(body.rows);
var f=document.getElementById('idfilter');
f.addEventListener('input',function(){var q=f.value.toLowerCase(),shown=0;
for(var i=0;i<rows.length;i++){var m=q===''||rows[i].textContent.toLowerCase().indexOf(q)>=0;rows[i].hidden=!m;if(m)shown++;}
document.getElementById('idcount').textContent=String(shown);});
var ths=t.tHead.rows[0].cells;
Array.prototype.forEach.call(ths,function(th,col){th.addEventListener('click',function(){
var num=th.className.indexOf('num')>=0,dir=th.getAttribute('aria-sort')==='ascending'?-1:1;
Array.prototype.forEach.call(ths,function(o){o.removeAttribute('aria-sort');});
th.setAttribute('aria-sort',dir===1?'ascending':'descending');
rows.sort(function(a,b){var x=a.cells[col].getAttribute('data-v')||a.cells[col].textContent,y=b.cells[col].getAttribute('data-v')||b.cells[col].textContent;
return dir*(num?Number(x)-Number(y):(x<y?-1:x>y?1:0));});
var frag=document.createDocumentFragment();for(var i=0;i<rows.length;i++)frag.appendChild(rows[i]);body.appendChild(frag);});});
})();
`.trim();

const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

function card(key: string, label: string, value: string, cls = ''): string {
  return `<div><dt>${esc(label)}</dt><dd data-key="${key}"${cls ? ` class="${cls}"` : ''}>${value}</dd></div>`;
}

function overview(s: Summary): string {
  const { error, warning } = s.violations;
  return `<dl class="cards">${[
    card('lines', 'lines', n(s.lines)),
    card('entries', 'entries', n(s.entries)),
    card('dbErrors', 'DB errors', n(s.dbErrors)),
    card('otherEntries', 'other entries', n(s.otherEntries)),
    card('malformedEntries', 'malformed', n(s.malformedEntries), s.malformedEntries > 0 ? 'err' : ''),
    card('requestIds', 'request ids', n(s.requestIds.length)),
    card('refreshPairs', 'refresh pairs', n(s.refreshPairs)),
    card('refreshLookupsLocal', 'local lookups', n(s.refreshLookups.local)),
    card('refreshLookupsRemote', 'remote-sync lookups', n(s.refreshLookups.remote)),
    card('errors', 'errors', n(error), error > 0 ? 'err' : 'ok'),
    card('warnings', 'warnings', n(warning), warning > 0 ? 'warn' : 'ok'),
  ].join('')}</dl>`;
}

/** Bars for a series of counts, as inline SVG. */
function bars(values: readonly number[], cls: string, width: number, height: number): string {
  const max = Math.max(1, ...values);
  const w = width / Math.max(1, values.length);
  const rects = values.map((v, i) => (v === 0 ? '' : `<rect class="${cls}" x="${(i * w).toFixed(1)}" y="${(height - (v / max) * height).toFixed(1)}" width="${Math.max(1, w - 1).toFixed(1)}" height="${((v / max) * height).toFixed(1)}"><title>${n(v)}</title></rect>`));
  return `<svg viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img">${rects.join('')}</svg>`;
}

function timeline(s: Summary): string {
  const t = s.timeline;
  if (t === null) return '';
  const rows = Object.entries(t.entries).map(([kind, values]) => `<h3>${esc(kind)} <span class="dim">${n(values.reduce((a, b) => a + b, 0))} entries</span></h3>${bars(values, 'b', 960, 60)}`);
  return `<section id="timeline"><h2>Timeline</h2><p class="dim">Entries per ${t.bucketSeconds / 60} min from ${esc(t.start)}.</p>${rows.join('')}</section>`;
}

function requestIds(s: Summary): string {
  if (s.requestIds.length === 0) return '';
  const rows = s.requestIds.slice(0, REQUEST_IDS_SHOWN).map((r) => {
    const line = s.timeline?.refreshes[r.id];
    const cad = r.refreshCadence;
    return `<tr><td class="mono">${esc(r.id)}</td><td class="mono">${r.sessionSegments.map(esc).join('<br>')}</td><td class="num">${r.entries}</td><td class="num">${r.refreshPairs}</td><td class="wide" data-v="${esc(r.first)}">${esc(r.first)}</td><td class="wide" data-v="${esc(r.last)}">${esc(r.last)}</td><td class="num" data-v="${cad.medianGapSeconds ?? ''}">${cad.medianGapSeconds ?? '-'}</td><td class="wide">${line ? bars(line, 'r', 96, 16) : ''}</td></tr>`;
  });
  const more = s.requestIds.length - rows.length;
  return `<section id="request-ids"><h2>Request ids <span class="dim">(<span id="idcount">${n(rows.length)}</span> shown of ${n(s.requestIds.length)})</span></h2>
<input type="search" id="idfilter" placeholder="Filter: an id, a segment, a date" aria-label="Filter request ids">
<div class="scroll"><table id="ids"><thead><tr><th>request id</th><th>session segments</th><th class="num">entries</th><th class="num">pairs</th><th class="wide">first</th><th class="wide">last</th><th class="num">median gap s</th><th class="wide">refreshes</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>
${more > 0 ? `<p class="dim">${n(more)} more request ids: <code>webmail-log analyse --format json</code> lists them all.</p>` : ''}</section>`;
}

function signatures(s: Summary): string {
  if (s.signatures.length === 0) return '';
  const rows = s.signatures.slice(0, SIGNATURES_SHOWN).map((g) => `<tr><td class="num">${g.count}</td><td>${esc(g.kind)}</td><td class="mono">${g.code === null ? '-' : esc(g.code)}</td><td class="mono">${g.message === null ? '-' : esc(g.message)}</td></tr>`);
  return `<section id="signatures"><h2>Signatures</h2><div class="scroll"><table><thead><tr><th class="num">count</th><th>kind</th><th>code</th><th>message</th></tr></thead><tbody>${rows.join('')}</tbody></table></div></section>`;
}

/** Prose with commands in backticks: the commands as code, on lines of their own. */
function prose(text: string): string {
  return text
    .split('`')
    .map((part, i, all) => (i % 2 === 1 && i < all.length - 1 ? `<code class="cmd">${esc(part)}</code>` : esc(part)))
    .join('');
}

function diagnosis(s: Summary): string {
  if (s.diagnosis.length === 0) return '';
  const items = s.diagnosis.map(
    (d) => `<div class="diag" data-diagnosis="${esc(d.id)}"><h3>${esc(d.title)}</h3><p class="dim"><span data-key="diagnosisEntries">${n(d.entries)}</span> entries, ${esc(d.first)} to ${esc(d.last)}; ${n(d.requestIdCount)} request ids</p><p>${esc(d.meaning)}</p><ol>${d.fix.map((f) => `<li>${prose(f)}</li>`).join('')}</ol>${
      d.breakdown ? `<table><thead><tr><th class="num">count</th><th>user</th><th>client address</th></tr></thead><tbody>${d.breakdown.slice(0, 20).map((b) => `<tr><td class="num">${b.count}</td><td>${esc(b.user)}</td><td class="mono">${esc(b.client)}</td></tr>`).join('')}</tbody></table>${d.breakdownOthers ? `<p class="dim">${n(d.breakdownOthers)} ${d.breakdownOthers === 1 ? 'failure' : 'failures'} from users and addresses not kept apart</p>` : ''}` : ''
    }<p class="dim"><code>webmail-log explain ${esc(d.id)}</code></p></div>`,
  );
  return `<section id="diagnosis"><h2>Diagnosis</h2>${items.join('')}</section>`;
}

function violations(ctx: ReportContext): string {
  if (ctx.violations.length === 0) return `<section id="violations"><h2>Violations</h2><p class="ok">None.</p></section>`;
  const groups = RULES.map((rule) => {
    const mine = ctx.violations.filter((v) => v.rule === rule.id);
    if (mine.length === 0) return '';
    const shown = mine.slice(0, VIOLATIONS_SHOWN);
    const items = shown.map((v) => {
      const lines = ctx.excerpt?.(v) ?? [];
      return `<li><span class="mono">${esc(v.file)}:${v.line}</span>${v.requestId !== null ? ` <span class="mono dim">&lt;${esc(v.requestId)}&gt;</span>` : ''} ${esc(v.message)}${lines.length > 0 ? `<pre>${lines.map(esc).join('\n')}</pre>` : ''}</li>`;
    });
    const more = mine.length - shown.length;
    return `<details class="rule" open data-rule="${rule.id}"><summary><span class="${mine[0].severity === 'error' ? 'err' : 'warn'}">${mine[0].severity}</span> ${rule.id} <span class="dim">(<span data-key="ruleCount">${n(mine.length)}</span>) ${esc(rule.summary)}</span></summary><ol>${items.join('')}</ol>${
      more > 0 ? `<p class="dim">${n(more)} more: <code>webmail-log analyse --format json</code> lists every violation.</p>` : ''
    }</details>`;
  });
  return `<section id="violations"><h2>Violations</h2>${groups.join('')}</section>`;
}

function notes(s: Summary): string {
  if (s.notesTotal === 0) return '';
  const items = s.notes.slice(0, NOTES_SHOWN).map((g) => `<li><span class="mono">${esc(g.requestId)}</span> ${esc(g.message)} <span class="dim">${esc(g.from)} to ${esc(g.to)}</span></li>`);
  return `<section id="notes"><h2>Notes <span class="dim">refresh gaps (${n(s.notesTotal)})</span></h2><ul>${items.join('')}</ul></section>`;
}

function settings(ctx: ReportContext): string {
  const rules = RULES.map((r) => `${r.id}=${ctx.severities[r.id]}`).join(', ');
  return `<section id="settings"><h2>Inputs and settings</h2><table><tbody>
<tr><th>host</th><td>${esc(ctx.host)}</td></tr>
<tr><th>inputs</th><td class="mono">${ctx.summary.files.map(esc).join('<br>') || 'none'}</td></tr>
<tr><th>rules</th><td class="mono">${esc(rules)}</td></tr>
<tr><th>request-id alphabet</th><td>${esc(ctx.requestIdAlphabet)}</td></tr>
<tr><th>time span</th><td>${ctx.summary.span ? `${esc(ctx.summary.span.first)} to ${esc(ctx.summary.span.last)}` : '-'}</td></tr>
<tr><th>written by</th><td>webmail-log ${esc(VERSION)}, ${esc(new Date(ctx.run.timestamp * 1000).toISOString())}</td></tr>
</tbody></table></section>`;
}

export function renderHtml(ctx: ReportContext): string {
  const s = ctx.summary;
  const csp = `default-src 'none'; style-src ${hash(STYLE)}; script-src ${hash(SCRIPT)}; img-src data:; base-uri 'none'; form-action 'none'`;
  const { error, warning } = s.violations;
  const title = `webmail-log: ${esc(ctx.host)}`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${title}</title>
<style>${STYLE}</style>
</head>
<body>
<header><h1>${title}</h1><p class="dim">${plural(error, 'error')}, ${plural(warning, 'warning')} in ${plural(s.entries, 'entry')} of ${s.files.map(esc).join(', ') || 'no input'}</p></header>
<main>
<section id="overview"><h2>Overview</h2>${overview(s)}</section>
${timeline(s)}
${diagnosis(s)}
${violations(ctx)}
${requestIds(s)}
${signatures(s)}
${notes(s)}
${settings(ctx)}
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

export const htmlReporter: Reporter = {
  description: 'one self-contained HTML page: overview, timeline, request ids, violations with their lines, diagnosis',
  end: (ctx) => renderHtml(ctx),
};
