/**
 * What the dev server adds to the HTML pages it serves (never to dist/, never to JSON): a small
 * script that reloads the tab when the site changes (server-sent events), links to the PDFs that
 * work locally, and the page of problems shown instead of a stale site.
 */
import { formatReport, type Problem } from '../generator/model/problems.ts';

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
 * content/media/.
 */
export function devPage(html: string, mediaUrl: string): string {
  const local = html.split(`${escapeHtml(mediaUrl)}/media/`).join('/media/');
  const end = local.lastIndexOf('</body>');
  return end < 0 ? local + RELOAD_SCRIPT : local.slice(0, end) + RELOAD_SCRIPT + '\n' + local.slice(end);
}

/** The problems as the terminal shows them (model/problems.ts, the one formatter), as text in a page. */
export function problemsPage(problems: readonly Problem[]): string {
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
${RELOAD_SCRIPT}
</body>
</html>
`;
}
