/**
 * The Hugo site's templates (hugo-site.ts), by their path under `layouts/`: one per output kind.
 * A record's values are made once, in a cached partial (`manuscript`, `volume`) that returns them,
 * and read by every file made from the record, as a Hugo site that cares for its build time does.
 */
import { PAGE_STYLE } from '../generator/render/pages.ts';

/** The build's inline style, the same bytes on every page. */
const STYLE = `<style>${PAGE_STYLE}</style>\n`;

const HEAD_START = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
`;

const BODY_START = `<link rel="alternate" type="application/atom+xml" title="{{ site.Data.journal.title }}" href="{{ site.Data.journal.base_url }}/feed.xml">
{{ partial "style.html" . }}</head>
<body>
`;

const HEADER = '<header><a href="/">{{ site.Data.journal.title }}</a></header>\n';

const FOOTER = `<footer>ISSN {{ replace site.Data.journal.citation_issn " " "" }} · {{ site.Data.journal.publisher }} · Data: <a href="/api/manuscripts/">JSON API</a></footer>
</body>
</html>
`;

/** A manuscript's values, by its file name: the API's record, its authors, volume, plain abstract. */
const MANUSCRIPT_PARTIAL = `{{- $key := . -}}
{{- $m := index site.Data.manuscripts $key -}}
{{- $j := site.Data.journal -}}
{{- $ref := string (or $m.volume $m.citation_volume) -}}
{{- $volume := partialCached "volume" $ref $ref -}}
{{- $names := slice -}}
{{- $people := slice -}}
{{- range $m.authors -}}
  {{- if reflect.IsMap . -}}
    {{- $names = $names | append .as_published -}}
  {{- else -}}
    {{- with index site.Data.authors . -}}
      {{- $names = $names | append (printf "%v %v" .name .surname) -}}
      {{- $people = $people | append . -}}
    {{- end -}}
  {{- end -}}
{{- end -}}
{{- $keywords := $m.keywords -}}
{{- $keywordList := slice -}}
{{- if reflect.IsSlice $keywords -}}
  {{- $keywordList = $keywords -}}
  {{- $keywords = printf "%s." (delimit $keywords ", ") -}}
{{- else -}}
  {{- range split (strings.TrimRight "." $keywords) "," -}}{{- $keywordList = $keywordList | append (trim . " ") -}}{{- end -}}
{{- end -}}
{{- $date := string $m.citation_date -}}
{{- $api := dict "id" $m.id "citation_language" (or $m.citation_language $j.citation_language) "udc" (or $m.udc "") "abstract" $m.abstract "citation_issn" (or $m.citation_issn $j.citation_issn) "citation_title" $m.citation_title "citation_date" $date "citation_volume" $volume.id "keywords" $keywords "document" (printf "%s/media/%s" $j.media_url $m.document) "authors" $names "section" $m.section -}}
{{- $plain := trim (replaceRE "\\\\s+" " " ($m.abstract | plainify | htmlUnescape)) " " -}}
{{- return dict "api" $api "people" $people "volume" $volume "plain" $plain "keywordList" $keywordList "date" $date "year" (substr $date 0 4) "url" (printf "%s/manuscripts/%v" $j.base_url $m.id) -}}
`;

/** A volume by its file name, label or id: its record with its file name (`key`) and numeral. */
const VOLUME_PARTIAL = `{{- $ref := string . -}}
{{- $found := dict -}}
{{- range $key, $v := site.Data.volumes -}}
  {{- if or (eq $key $ref) (eq (string $v.citation_journal_title) $ref) (eq (string $v.id) $ref) -}}
    {{- $found = merge $v (dict "key" $key "numeral" (partial "numeral" $v.citation_journal_title) "date" (string $v.full_date)) -}}
  {{- end -}}
{{- end -}}
{{- return $found -}}
`;

/** The Roman numeral that ends a volume's label, as a number ("Volume V" → 5). */
const NUMERAL_PARTIAL = `{{- $letters := split (replaceRE "^.*?([IVXLCDM]+)\\\\s*$" "$1" (string .)) "" -}}
{{- $values := dict "I" 1 "V" 5 "X" 10 "L" 50 "C" 100 "D" 500 "M" 1000 -}}
{{- $total := 0 -}}
{{- range $i, $letter := $letters -}}
  {{- $here := index $values $letter -}}
  {{- $next := 0 -}}
  {{- if lt (add $i 1) (len $letters) -}}{{- $next = index $values (index $letters (add $i 1)) -}}{{- end -}}
  {{- if lt $here $next -}}{{- $total = sub $total $here -}}{{- else -}}{{- $total = add $total $here -}}{{- end -}}
{{- end -}}
{{- return $total -}}
`;

/** Each volume's manuscripts, by the volume's file name. */
const BY_VOLUME_PARTIAL = `{{- $s := newScratch -}}
{{- range $key, $m := site.Data.manuscripts -}}
  {{- $ref := string (or $m.volume $m.citation_volume) -}}
  {{- $s.Add (partialCached "volume" $ref $ref).key (slice $key) -}}
{{- end -}}
{{- return $s.Values -}}
`;

const VOLUME_API_PARTIAL = `{{- $v := index site.Data.volumes . -}}
{{- $j := site.Data.journal -}}
{{- return dict "citation_language" (or $v.citation_language $j.citation_language) "citation_journal_title" $v.citation_journal_title "udc" (string $v.udc) "citation_issn" (or $v.citation_issn $j.citation_issn) "first_page" $v.first_page "last_page" $v.last_page "pdf" (printf "%s/media/%s" $j.media_url $v.pdf) "full_date" (string $v.full_date) -}}
`;

const MANUSCRIPT_PAGE = `{{- $d := partialCached "manuscript" .Params.key .Params.key -}}
{{- $m := $d.api -}}
{{- $j := site.Data.journal -}}
{{- $description := truncate 300 $d.plain -}}
{{- $issn := replace $m.citation_issn " " "" -}}
${HEAD_START}<title>{{ $m.citation_title }} | {{ $j.title }}</title>
<link rel="canonical" href="{{ $d.url }}">
<meta name="description" content="{{ $description }}">
<meta name="citation_title" content="{{ $m.citation_title }}">
{{ range $d.people }}<meta name="citation_author" content="{{ .surname }}, {{ .name }}">
<meta name="citation_author_institution" content="{{ .institution }}">
{{ end }}<meta name="citation_publication_date" content="{{ replace $d.date "-" "/" }}">
<meta name="citation_date" content="{{ replace $d.date "-" "/" }}">
<meta name="citation_journal_title" content="{{ $j.title }}">
<meta name="citation_issn" content="{{ $issn }}">
<meta name="citation_volume" content="{{ $d.volume.numeral }}">
<meta name="citation_pdf_url" content="{{ $m.document }}">
<meta name="citation_abstract_html_url" content="{{ $d.url }}">
{{ range $d.keywordList }}<meta name="citation_keywords" content="{{ . }}">
{{ end }}<meta name="citation_language" content="en">
<meta name="citation_publisher" content="{{ $j.publisher }}">
<meta name="citation_abstract" content="{{ $d.plain }}">
<link rel="schema.DC" href="http://purl.org/dc/elements/1.1/">
<meta name="DC.Title" content="{{ $m.citation_title }}">
{{ range $m.authors }}<meta name="DC.Creator.PersonalName" content="{{ . }}">
{{ end }}<meta name="DC.Date.issued" content="{{ $d.date }}">
<meta name="DC.Identifier.URI" content="{{ $d.url }}">
<meta name="DC.Language" content="en">
<meta name="DC.Publisher" content="{{ $j.publisher }}">
<meta name="DC.Source" content="{{ $j.title }}">
<meta name="DC.Source.ISSN" content="{{ $issn }}">
<meta name="DC.Source.Volume" content="{{ $d.volume.numeral }}">
{{ range $d.keywordList }}<meta name="DC.Subject" content="{{ . }}">
{{ end }}<meta name="DC.Type" content="Text.Serial.Journal">
<meta name="DC.Type.articleType" content="{{ $m.section }}">
<meta property="og:type" content="article">
<meta property="og:title" content="{{ $m.citation_title }}">
<meta property="og:url" content="{{ $d.url }}">
<meta property="og:site_name" content="{{ $j.title }}">
<meta property="og:description" content="{{ $description }}">
<meta property="article:published_time" content="{{ $d.date }}">
<meta property="article:section" content="{{ $m.section }}">
{{ range $d.keywordList }}<meta property="article:tag" content="{{ . }}">
{{ end }}{{- $authors := slice -}}
{{- range $d.people }}{{ $authors = $authors | append (dict "@type" "Person" "givenName" .name "familyName" .surname "affiliation" (dict "@type" "Organization" "name" .institution)) }}{{ end -}}
<script type="application/ld+json">{{ dict "@context" "https://schema.org" "@type" "ScholarlyArticle" "@id" $d.url "url" $d.url "headline" $m.citation_title "name" $m.citation_title "description" $d.plain "datePublished" $d.date "inLanguage" "en" "keywords" $d.keywordList "author" $authors "isPartOf" (dict "@type" "PublicationVolume" "volumeNumber" $d.volume.numeral "isPartOf" (dict "@type" "Periodical" "name" $j.title "issn" $issn)) "encoding" (dict "@type" "MediaObject" "contentUrl" $m.document "encodingFormat" "application/pdf") | jsonify | safeJS }}</script>
${BODY_START}${HEADER}<main>
<article>
<h1>{{ $m.citation_title }}</h1>
<ul class="authors">{{ range $d.people }}<li><span class="author">{{ .name }} {{ .surname }}</span><span class="institution">{{ .institution }}</span></li>{{ end }}</ul>
<h2>Abstract</h2>
<div class="abstract">{{ $m.abstract | safeHTML }}</div>
<p><a class="pdf" href="{{ $m.document }}" type="application/pdf">Full text (PDF)</a></p>
<dl class="meta">
<dt>Volume</dt><dd><a href="/volumes/{{ $d.volume.numeral }}">{{ $d.volume.citation_journal_title }}</a> ({{ substr $d.volume.date 0 4 }})</dd>
<dt>Section</dt><dd>{{ $m.section }}</dd>
<dt>Published</dt><dd><time datetime="{{ $d.date }}">{{ (time $d.date).Format "2 January 2006" }}</time></dd>
<dt>Language</dt><dd>{{ $m.citation_language }}</dd>
<dt>Keywords</dt><dd>{{ delimit $d.keywordList ", " }}</dd>
</dl>
<p class="cite">Cite: <a href="/citations/{{ $m.id }}.bib" download type="application/x-bibtex">BibTeX</a> · <a href="/citations/{{ $m.id }}.ris" download type="application/x-research-info-systems">RIS</a> · <a href="/citations/{{ $m.id }}.json" download type="application/vnd.citationstyles.csl+json">CSL-JSON</a></p>
</article>
</main>
${FOOTER}`;

const VOLUME_PAGE = `{{- $j := site.Data.journal -}}
{{- $v := partialCached "volume" .Params.key .Params.key -}}
{{- $mine := index (partialCached "by-volume" "all") $v.key -}}
{{- $year := substr $v.date 0 4 -}}
${HEAD_START}<title>{{ $v.citation_journal_title }} ({{ $year }}) | {{ $j.title }}</title>
<link rel="canonical" href="{{ $j.base_url }}/volumes/{{ $v.numeral }}">
<meta name="description" content="{{ $v.citation_journal_title }} of {{ $j.title }}, {{ $year }}: {{ len $mine }} articles.">
${BODY_START}${HEADER}<main>
<h1>{{ $v.citation_journal_title }} ({{ $year }})</h1>
<dl class="meta">
<dt>Published</dt><dd><time datetime="{{ $v.date }}">{{ (time $v.date).Format "2 January 2006" }}</time></dd>
<dt>Pages</dt><dd>{{ $v.first_page }}–{{ $v.last_page }}</dd>
<dt>UDC</dt><dd>{{ $v.udc }}</dd>
</dl>
<p><a class="pdf" href="{{ $j.media_url }}/media/{{ $v.pdf }}" type="application/pdf">The whole volume (PDF)</a></p>
{{ range $section := $j.sections -}}
{{- $in := slice -}}
{{- range $mine }}{{ $d := partialCached "manuscript" . . }}{{ if eq $d.api.section $section }}{{ $in = $in | append $d.api }}{{ end }}{{ end -}}
{{- with $in }}<h2>{{ $section }}</h2>
<ul>
{{ range . }}<li><a href="/manuscripts/{{ .id }}">{{ .citation_title }}</a><br><span class="meta">{{ delimit .authors ", " }}</span></li>
{{ end }}</ul>
{{ end }}{{ end -}}
</main>
${FOOTER}`;

const HOME_PAGE = `{{- $j := site.Data.journal -}}
${HEAD_START}<title>{{ $j.title }}</title>
<link rel="canonical" href="{{ $j.base_url }}/">
<meta name="description" content="{{ $j.title }}, published by {{ $j.publisher }}: every volume and article.">
${BODY_START}<main>
<h1>{{ $j.title }}</h1>
<p class="meta">ISSN {{ replace $j.citation_issn " " "" }}</p>
<h2>Volumes</h2>
<ul>
{{ range $key, $_ := site.Data.volumes }}{{ $v := partialCached "volume" $key $key }}<li><a href="/volumes/{{ $v.numeral }}">{{ $v.citation_journal_title }}</a> ({{ substr $v.date 0 4 }}), pages {{ $v.first_page }}–{{ $v.last_page }}</li>
{{ end }}</ul>
</main>
${FOOTER}`;

const RIS = `{{- $d := partialCached "manuscript" .Params.key .Params.key -}}
{{- $m := $d.api -}}
TY  - JOUR
TI  - {{ $m.citation_title }}
{{ range $d.people }}AU  - {{ .surname }}, {{ .name }}
{{ end }}PY  - {{ $d.year }}
DA  - {{ replace $d.date "-" "/" }}/
T2  - {{ site.Data.journal.title }}
VL  - {{ $d.volume.numeral }}
SN  - {{ replace $m.citation_issn " " "" }}
PB  - {{ site.Data.journal.publisher }}
UR  - {{ $d.url }}
L1  - {{ $m.document }}
AB  - {{ $d.plain }}
{{ range $d.keywordList }}KW  - {{ . }}
{{ end }}LA  - en
ER  - 
`;

const BIBTEX = `{{- $d := partialCached "manuscript" .Params.key .Params.key -}}
{{- $m := $d.api -}}
{{- $months := slice "jan" "feb" "mar" "apr" "may" "jun" "jul" "aug" "sep" "oct" "nov" "dec" -}}
{{- $surnames := slice -}}{{- range $d.people }}{{ $surnames = $surnames | append (printf "%v, %v" .surname .name) }}{{ end -}}
{{- printf "@article{%s%s-%v," (anchorize (index $d.people 0).surname) $d.year $m.id }}
  author = {{ "{" }}{{ delimit $surnames " and " }}},
  title = {{ "{" }}{{ $m.citation_title }}},
  journal = {{ "{" }}{{ site.Data.journal.title }}},
  year = {{ "{" }}{{ $d.year }}},
  month = {{ index $months (sub (int (strings.TrimLeft "0" (substr $d.date 5 2))) 1) }},
  date = {{ "{" }}{{ $d.date }}},
  volume = {{ "{" }}{{ $d.volume.numeral }}},
  issn = {{ "{" }}{{ replace $m.citation_issn " " "" }}},
  url = {{ "{" }}{{ $d.url }}},
  pdf = {{ "{" }}{{ $m.document }}},
  abstract = {{ "{" }}{{ $d.plain }}},
  keywords = {{ "{" }}{{ delimit $d.keywordList ", " }}},
  language = {{ "{" }}{{ $m.citation_language }}}
}
`;

const CSL_JSON = `{{- $d := partialCached "manuscript" .Params.key .Params.key -}}
{{- $m := $d.api -}}
{{- $authors := slice -}}{{- range $d.people }}{{ $authors = $authors | append (dict "family" .surname "given" .name) }}{{ end -}}
{{- $parts := slice (int $d.year) (int (strings.TrimLeft "0" (substr $d.date 5 2))) (int (strings.TrimLeft "0" (substr $d.date 8 2))) -}}
{{- slice (dict "id" (printf "%s%s-%v" (anchorize (index $d.people 0).surname) $d.year $m.id) "type" "article-journal" "title" $m.citation_title "author" $authors "issued" (dict "date-parts" (slice $parts)) "container-title" site.Data.journal.title "volume" (string $d.volume.numeral) "ISSN" (replace $m.citation_issn " " "") "publisher" site.Data.journal.publisher "URL" $d.url "abstract" $d.plain "keyword" (delimit $d.keywordList ", ") "language" "en" "custom" (dict "pdf" $m.document)) | jsonify (dict "indent" "  ") }}
`;

const FEED = `{{- $j := site.Data.journal -}}
{{- $latest := first 50 (sort site.Data.manuscripts "citation_date" "desc") -}}
<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
<id>{{ $j.base_url }}/feed.xml</id>
<title>{{ $j.title | htmlEscape }}</title>
<link rel="self" type="application/atom+xml" href="{{ $j.base_url }}/feed.xml"/>
<link rel="alternate" type="text/html" href="{{ $j.base_url }}/"/>
<updated>{{ (index $latest 0).citation_date }}T00:00:00Z</updated>
<author><name>{{ $j.publisher | htmlEscape }}</name></author>
{{ range $latest -}}
<entry>
<id>{{ $j.base_url }}/manuscripts/{{ .id }}</id>
<title type="text">{{ .citation_title | htmlEscape }}</title>
<link rel="alternate" type="text/html" href="{{ $j.base_url }}/manuscripts/{{ .id }}"/>
<link rel="related" type="application/pdf" href="{{ $j.media_url }}/media/{{ .document }}"/>
<published>{{ .citation_date }}T00:00:00Z</published>
<updated>{{ .citation_date }}T00:00:00Z</updated>
{{ range .authors }}{{ if reflect.IsMap . }}<author><name>{{ .as_published | htmlEscape }}</name></author>{{ else }}{{ with index site.Data.authors . }}<author><name>{{ .name | htmlEscape }} {{ .surname | htmlEscape }}</name></author>{{ end }}{{ end }}{{ end }}
<summary type="text">{{ .abstract | plainify | htmlUnescape | htmlEscape }}</summary>
</entry>
{{ end -}}
</feed>
`;

const SITEMAP = `{{- $j := site.Data.journal -}}
<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>{{ $j.base_url }}/</loc></url>
{{ range $key, $_ := site.Data.volumes }}{{ $v := partialCached "volume" $key $key }}<url><loc>{{ $j.base_url }}/volumes/{{ $v.numeral }}</loc><lastmod>{{ $v.date }}</lastmod></url>
{{ end }}{{ range site.Data.manuscripts }}<url><loc>{{ $j.base_url }}/manuscripts/{{ .id }}</loc><lastmod>{{ .citation_date }}</lastmod></url>
{{ end }}</urlset>
`;

/**
 * A JSON array written item by item: a slice grown with `append` is copied whole at each item, a
 * time that grows with the square of the records.
 */
const list = (range: string, item: string) =>
  `[{{- $first := true -}}\n${range}{{ if not $first }},{{ end }}{{ $first = false }}{{ ${item} | jsonify }}{{ end -}}]\n`;

export const HUGO_TEMPLATES: Readonly<Record<string, string>> = {
  'partials/style.html': STYLE,
  'partials/manuscript.html': MANUSCRIPT_PARTIAL,
  'partials/volume.html': VOLUME_PARTIAL,
  'partials/numeral.html': NUMERAL_PARTIAL,
  'partials/by-volume.html': BY_VOLUME_PARTIAL,
  'partials/volume-api.html': VOLUME_API_PARTIAL,
  'index.html': HOME_PAGE,
  'index.apiauthors.json': list(
    '{{- range site.Data.authors -}}',
    'dict "name" .name "surname" .surname "institution" .institution',
  ),
  'index.apivolumes.json': list('{{- range $key, $_ := site.Data.volumes -}}', 'partial "volume-api" $key'),
  'index.apimanuscripts.json': list(
    '{{- range $key, $_ := site.Data.manuscripts -}}',
    '(partialCached "manuscript" $key $key).api',
  ),
  'index.apisections.json': list('{{- range site.Data.journal.sections -}}', 'dict "title" .'),
  'index.apiroot.json':
    '{{- $base := printf "%s/api" site.Data.journal.base_url -}}\n{{- dict "authors" (printf "%s/authors/" $base) "volumes" (printf "%s/volumes/" $base) "manuscripts" (printf "%s/manuscripts/" $base) "sections" (printf "%s/sections/" $base) | jsonify -}}\n',
  'index.feed.xml': FEED,
  'index.sitemapxml.xml': SITEMAP,
  'manuscript/single.html': MANUSCRIPT_PAGE,
  'volume/single.html': VOLUME_PAGE,
  'citation/single.ris.ris': RIS,
  'citation/single.bib.bib': BIBTEX,
  'citation/single.csl.json': CSL_JSON,
  'manuscript-api/single.detail.json': '{{- (partialCached "manuscript" .Params.key .Params.key).api | jsonify -}}\n',
  'volume-api/single.detail.json': '{{- partial "volume-api" .Params.key | jsonify -}}\n',
  'author-api/single.detail.json':
    '{{- with index site.Data.authors .Params.key }}{{ dict "name" .name "surname" .surname "institution" .institution | jsonify }}{{ end -}}\n',
};
