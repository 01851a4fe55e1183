/**
 * What the dev server adds to the HTML pages it serves (never to dist/, never to JSON): a small
 * script that reloads the tab when the site changes (server-sent events), links to the PDFs that
 * work locally, and the page of problems shown instead of a stale site.
 */
import { formatProblem, formatReport, type Problem } from '../generator/model/problems.ts';

/** The path of the event stream; nothing a build writes is under `/__dev/`. */
export const EVENTS_PATH = '/__dev/events';

/** Reloads the page on each `reload` event; after a restart of the server, too (the stream reconnects). */
const RELOAD_SCRIPT = `<script>(() => {
  const events = new EventSource(${JSON.stringify(EVENTS_PATH)});
  let opened = false;
  events.addEventListener('open', () => { if (opened) location.reload(); opened = true; });
  events.addEventListener('reload', () => location.reload());
})();</script>`;

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => escapes[c]!);

/**
 * A served page: the reload script before `</body>`, and the PDFs' links (at `media_url`, the
 * deployed origin: render/api.ts, mediaUrl) pointed at this server, which serves them from
 * content/media/. The content's warnings, if any, come first in the page: an editor looks at the
 * page, not at the terminal, and a warning never stops the site from being shown.
 */
export function devPage(html: string, mediaUrl: string, warnings: readonly Problem[] = []): string {
  let local = html.split(`${escapeHtml(mediaUrl)}/media/`).join('/media/');
  const section = warningsSection(warnings);
  if (section) {
    const body = /<body[^>]*>/i.exec(local);
    const at = body ? body.index + body[0].length : 0;
    local = `${local.slice(0, at)}\n${section}${local.slice(at)}`;
  }
  const end = local.lastIndexOf('</body>');
  return end < 0 ? local + RELOAD_SCRIPT : local.slice(0, end) + RELOAD_SCRIPT + '\n' + local.slice(end);
}

/** The warnings as the terminal shows them, in a box of their own (never the problems' red). */
function warningsSection(warnings: readonly Problem[]): string {
  if (warnings.length === 0) return '';
  const count = `${warnings.length} warning${warnings.length === 1 ? '' : 's'}`;
  const lines = warnings.map((warning) => `Warning: ${formatProblem(warning)}`).join('\n');
  return `<section id="dev-warnings" style="margin:0;padding:.5rem 1rem;background:#fff8e1;border-bottom:3px solid #b8860b;color:#222;font:14px/1.4 system-ui,sans-serif">
<strong>The content has ${escapeHtml(count)}</strong> (shown by npm run dev only; they do not stop a build)
<pre style="white-space:pre-wrap;word-break:break-word;margin:.25rem 0 0">${escapeHtml(lines)}</pre>
</section>
`;
}

/** The problems as the terminal shows them (model/problems.ts, the one formatter), as text in a page. */
export function problemsPage(problems: readonly Problem[], warnings: readonly Problem[] = []): string {
  const files = new Set(problems.map((problem) => problem.file)).size;
  const count = `${problems.length} problem${problems.length === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(count)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:70rem;padding:0 1rem}
pre{white-space:pre-wrap;word-break:break-word;background:#fff4f4;border-left:4px solid #a00;padding:1rem}
h1{color:#a00;font-size:1.4rem}</style>
</head>
<body>
<h1>The content has ${escapeHtml(count)}</h1>
<p>Nothing is shown from before them. Fix them and save: this page turns back into the site by itself.</p>
<pre id="problems">${escapeHtml(formatReport(problems))}</pre>
${warningsSection(warnings)}${RELOAD_SCRIPT}
</body>
</html>
`;
}
