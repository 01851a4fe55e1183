/**
 * The search box of the pages (docs/search.md): on the home page, the box and its results; in the
 * header of every other page, a box that asks the home page (`/?q=words`). The results come from
 * the index the build writes under `/pagefind/` (generator/engine/search/search-index.ts), read in
 * the browser by Pagefind's own module: no server answers a search.
 *
 * Nothing of it is on a page when journal.yaml says `search: false`.
 */
import type { JournalInput } from '../model/schema.ts';

/** Whether the journal publishes the search (on unless journal.yaml says `search: false`). */
export const searchIsOn = (journal: JournalInput): boolean => journal.search !== false;

const FIELD =
  '<input type="search" name="q" aria-label="Search the articles" placeholder="Title, author, keyword, word of the abstract" size="32">' +
  ' <button type="submit">Search</button>';

/** The box in the header of a page other than the home page: a plain form, which works without script too. */
export const HEADER_SEARCH = `<form class="search" role="search" action="/">${FIELD}</form>`;

/** Its style, and the results', added to the pages' own when the search is on. */
export const SEARCH_STYLE =
  'form.search{margin:.4rem 0}form.search input{font:inherit;max-width:70%}' +
  '#search-results{list-style:none;padding:0}#search-results li{margin:0 0 1rem}' +
  '#search-results p{margin:.2rem 0}#search-results .meta{display:block;color:#555}';

/**
 * What a browser does with the box: loads Pagefind's module when a search is first asked for, and
 * shows each result's title (a link to its landing page), authors, volume and a snippet.
 *
 * The index is a bundle of Pagefind's per language of each shard (`/pagefind/<language>/`, then
 * `/pagefind/shards/<n>/<language>/`, listed in `/pagefind/languages.json`, the first shard's
 * languages first, most manuscripts first). Pagefind opens the index of the page's `lang`
 * (this page's is English): the page's language is set to the first bundle's while Pagefind
 * starts, and every other bundle is merged into it, so that one search finds a manuscript in
 * Macedonian and one in English alike. The snippet is Pagefind's excerpt, whose
 * only markup is `<mark>` around the words found; it is read as inert HTML and copied as text and
 * marks, so that no text of a record can be taken for markup.
 */
const SCRIPT = `<script type="module">
const form = document.getElementById('search');
const input = form.elements.q;
const list = document.getElementById('search-results');
const status = document.getElementById('search-status');
const base = '/pagefind/';
let loading;
const load = () => (loading ??= (async () => {
  const [first, ...others] = await (await fetch(base + 'languages.json')).json();
  const root = document.documentElement;
  const lang = root.lang;
  root.lang = first;
  const pagefind = await import(base + first + '/pagefind.js');
  await pagefind.init();
  root.lang = lang;
  for (const language of others) await pagefind.mergeIndex(base + language + '/', { language });
  return pagefind;
})());
const result = (data) => {
  const item = document.createElement('li');
  const link = item.appendChild(document.createElement('a'));
  link.href = data.url;
  link.textContent = data.meta.title;
  const meta = item.appendChild(document.createElement('span'));
  meta.className = 'meta';
  meta.textContent = [data.meta.authors, data.meta.volume].filter(Boolean).join(' · ');
  const snippet = item.appendChild(document.createElement('p'));
  for (const node of new DOMParser().parseFromString(data.excerpt, 'text/html').body.childNodes) {
    if (node.nodeName === 'MARK') snippet.appendChild(document.createElement('mark')).textContent = node.textContent;
    else snippet.append(node.textContent);
  }
  return item;
};
let latest = 0;
const search = async (query) => {
  const asked = ++latest;
  try {
    const found = query.trim() ? await (await load()).search(query) : { results: [] };
    const shown = await Promise.all(found.results.slice(0, 20).map((r) => r.data()));
    if (asked !== latest) return;
    list.replaceChildren(...shown.map(result));
    status.textContent = query.trim() ? (found.results.length === 1 ? '1 article found' : found.results.length + ' articles found') : '';
  } catch {
    if (asked === latest) status.textContent = 'The search is not available at the moment.';
  }
};
input.addEventListener('input', () => {
  history.replaceState(null, '', input.value ? '?q=' + encodeURIComponent(input.value) : location.pathname);
  search(input.value);
});
form.addEventListener('submit', (event) => {
  event.preventDefault();
  search(input.value);
});
const asked = new URLSearchParams(location.search).get('q');
if (asked) {
  input.value = asked;
  search(asked);
}
</script>`;

/** The home page's search: its box, where the results go, and the script; lines, as the page takes them. */
export const HOME_SEARCH: readonly string[] = [
  `<form class="search" id="search" role="search" action="/">${FIELD}</form>`,
  '<p class="meta" id="search-status" role="status"></p>',
  '<ol id="search-results"></ol>',
  SCRIPT,
];
