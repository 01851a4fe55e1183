import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../scripts/generator/model/html-references.ts';
import { toJson } from '../scripts/generator/render/json-text.ts';
import { cleanAbstractBytes, sanitizeAbstractHtml as clean } from '../scripts/generator/render/sanitize-html.ts';
import { seededRandom } from '../scripts/synthetic/seeded-random.ts';

describe('abstract sanitizer: what editors write survives', () => {
  it('keeps the allowed elements, lower-cased and without attributes', () => {
    expect(clean('<p>A checklist of <em>Orchis</em> species.</p>')).toBe(
      '<p>A checklist of <em>Orchis</em> species.</p>',
    );
    expect(
      clean(
        '<P class="x" style="color:red">H<SUB>2</SUB>O, 12<sup>th</sup>, <b>b</b> <i>i</i> <strong>s</strong><br/>x<br >y</P>',
      ),
    ).toBe('<p>H<sub>2</sub>O, 12<sup>th</sup>, <b>b</b> <i>i</i> <strong>s</strong><br>x<br>y</p>');
  });

  it('keeps http(s) links with their href only', () => {
    expect(clean('<a href="https://doi.org/10.1000/1?a=1&amp;b=2" target="_blank" onclick="x()">doi</a>')).toBe(
      '<a href="https://doi.org/10.1000/1?a=1&amp;b=2">doi</a>',
    );
    expect(clean("<a title='t' HREF=http://example.org/x>x</a>")).toBe('<a href="http://example.org/x">x</a>');
  });

  it('keeps text, Cyrillic and character references as text', () => {
    expect(clean('Пакошево – 12 °C, a &lt; b &amp; c &eacute; &#8211; &#x2014;')).toBe(
      'Пакошево – 12 °C, a &lt; b &amp; c &eacute; – —',
    );
    expect(clean('Tom & Jerry > 3 "quoted"')).toBe('Tom &amp; Jerry &gt; 3 "quoted"');
  });
});

describe('abstract sanitizer: hostile input is inert', () => {
  it('escapes script, style and other elements instead of running or dropping them', () => {
    expect(clean('<script>alert(1)</script>')).toBe('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(clean('<style>*{}</style><iframe src="//x"></iframe>')).toBe(
      '&lt;style&gt;*{}&lt;/style&gt;&lt;iframe src="//x"&gt;&lt;/iframe&gt;',
    );
    expect(clean('<svg onload=alert(1)>')).toBe('&lt;svg onload=alert(1)&gt;');
    expect(clean('<!-- c --><![CDATA[x]]><?php x ?>')).toBe('&lt;!-- c --&gt;&lt;![CDATA[x]]&gt;&lt;?php x ?&gt;');
  });

  it('drops event handlers and every other attribute from allowed elements', () => {
    expect(clean('<p onclick="alert(1)" onmouseover=alert(2)>x</p>')).toBe('<p>x</p>');
    expect(clean('<em style="background:url(javascript:alert(1))">x</em>')).toBe('<em>x</em>');
    expect(clean('<a href="https://ok.example" onfocus="x" autofocus>x</a>')).toBe(
      '<a href="https://ok.example">x</a>',
    );
  });

  it('refuses every href that is not an absolute http(s) URL, however it is spelled', () => {
    for (const href of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      'javascript&colon;alert(1)',
      'javascript&#58;alert(1)',
      '&#106;avascript:alert(1)',
      'javascript&#x3A;alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:x',
      '//evil.example/x',
      '/relative',
      'ftp://x.example/',
      'http://exa mple.org',
      'http://',
      'https://x.example/&#0;',
    ]) {
      const out = clean(`<a href="${href.replace(/"/g, '&quot;')}">x</a>`);
      expect(out, href).toBe('x');
    }
    expect(clean('<a>no href</a>')).toBe('no href');
  });

  it('decodes references in an href before judging it, and re-escapes it on output', () => {
    expect(clean('<a href="https&#58;//x.example/?q=&quot;&gt;">x</a>')).toBe(
      '<a href="https://x.example/?q=&quot;&gt;">x</a>',
    );
    expect(clean('<a href="https&colon;//x.example">x</a>')).toBe('<a href="https://x.example">x</a>');
    expect(clean('<a href="https://x.example/&unknown;">x</a>')).toBe(
      '<a href="https://x.example/&amp;unknown;">x</a>',
    );
  });

  it("escapes a tag that never closes, so it cannot swallow the page's own markup", () => {
    expect(clean('<p>x</p><img src=x onerror="window.__pwned=1"')).toBe(
      '<p>x</p>&lt;img src=x onerror="window.__pwned=1"',
    );
    expect(clean('<em')).toBe('&lt;em');
    expect(clean('<a href="https://x.example/')).toBe('&lt;a href="https://x.example/');
    expect(clean('<p/onclick=alert(1)>x')).toBe('&lt;p/onclick=alert(1)&gt;x');
    expect(clean('<p a<b>x</p>')).toBe('&lt;p a<b>x</b>');
  });

  it('balances what it keeps: unclosed elements closed, stray closings dropped, misnesting repaired', () => {
    expect(clean('<p><em>open')).toBe('<p><em>open</em></p>');
    expect(clean('</em>x</p></br>')).toBe('x');
    expect(clean('<em><strong>a</em>b</strong>')).toBe('<em><strong>a</strong></em>b');
    expect(clean('<p>one<p>two')).toBe('<p>one</p><p>two</p>');
    expect(clean('<a href="https://a.example">a<a href="https://b.example">b</a>c</a>')).toBe(
      '<a href="https://a.example">a</a><a href="https://b.example">b</a>c',
    );
    expect(clean('<a href="javascript:x">a<em>b</em></a>c')).toBe('a<em>b</em>c');
  });

  it('turns unsafe numeric references and NUL into U+FFFD, and leaves a bare ampersand escaped', () => {
    expect(clean('a&#0;b&#xD800;c&#1114112;d\0e')).toBe('a\ufffdb\ufffdc\ufffdd\ufffde');
    expect(clean('&#60;script&#62;')).toBe('&lt;script&gt;');
    expect(clean('AT&T &amp')).toBe('AT&amp;T &amp;amp');
  });

  // No timing assertion (performance lives in benchmarks): an exponential tag pattern would hit the test timeout.
  it('handles long adversarial input without backtracking away', () => {
    const attrs = '<p' + ' a=b'.repeat(20_000);
    expect(clean(attrs).startsWith('&lt;p a=b')).toBe(true);
    expect(clean('<'.repeat(50_000))).toBe('&lt;'.repeat(50_000));
    expect(clean('<em>'.repeat(10_000)).endsWith('</em>')).toBe(true);
    // Runs of tags that never close: a pattern that rescans the rest of the input from every `<`
    // would take minutes here (quadratic), well past the test's timeout.
    expect(clean('<p a'.repeat(100_000))).toBe('&lt;p a'.repeat(100_000));
    expect(clean('<a href=x '.repeat(50_000))).toBe('&lt;a href=x '.repeat(50_000));
  });
});

describe('abstract sanitizer: an abstract of plain markup is taken as its JSON bytes, as sanitizing gives it', () => {
  /** What cleanAbstractBytes gives for an abstract, as text; undefined when it declines. */
  const taken = (abstract: string) => {
    const bytes = cleanAbstractBytes(Buffer.from(toJson(abstract)));
    return bytes && Buffer.from(bytes).toString('utf8');
  };

  it('takes plain markup from the JSON as it is: what the sanitizer would return', () => {
    for (const abstract of [
      '<p>A checklist of <em>Orchis</em> species.</p>',
      '<p>CO<sub>2</sub> at 12 °C, 3<sup>rd</sup> “Пакошево” 𝔘</p><p><strong>b</strong><br>x <i>i</i> <b>b</b></p>',
      'no markup at all, "quoted"? no: a quote is a JSON escape',
      '',
    ]) {
      expect(taken(abstract) ?? null, abstract).toBe(abstract.includes('"') ? null : clean(abstract));
    }
  });

  it('declines whatever the sanitizer would change, or the JSON escapes', () => {
    for (const abstract of [
      '<P>upper</P>',
      '<p class="x">attribute</p>',
      '<br/>',
      '<br >',
      '</br>',
      '<a href="https://x.example">a</a>',
      '<p>one<p>two</p></p>',
      '<p>unclosed',
      'stray</em>',
      '<em><b>misnested</em></b>',
      '<script>x</script>',
      'a &amp; b',
      'a & b',
      'a > b',
      'a < b',
      '<>',
      '</>',
      '<p>',
      'tab\there',
      'line\nbreak',
      'back\\slash',
      '\u2028',
      'NUL\u0000',
    ]) {
      expect(taken(abstract), abstract).toBeUndefined();
    }
  });

  it('agrees with the sanitizer on random markup', () => {
    const random = seededRandom(4);
    const pieces = [
      '<p>',
      '</p>',
      '<em>',
      '</em>',
      '<b>',
      '</b>',
      '<sub>',
      '</sub>',
      '<br>',
      '</br>',
      '<EM>',
      '<p class=x>',
      '<a href="https://a.example">',
      '</a>',
      '<strong>',
      '</strong>',
      '<i>',
      '</i>',
      '<sup>',
      '</sup>',
      '<u>',
      '</u>',
      ' text ',
      'Пакошево',
      '𝔘',
      '&amp;',
      '&',
      '>',
      '<',
      '"',
      '\\',
      '\n',
      '\u2028',
    ];
    let accepted = 0;
    for (let n = 0; n < 3000; n++) {
      let abstract = '';
      const length = Math.floor(random() * 12);
      for (let k = 0; k < length; k++) abstract += pieces[Math.floor(random() * pieces.length)];
      const bytes = taken(abstract);
      if (bytes === undefined) continue;
      accepted++;
      expect(bytes, abstract).toBe(clean(abstract));
      expect(bytes, abstract).toBe(abstract);
    }
    // The check is narrow, but not so narrow that it never takes anything.
    expect(accepted).toBeGreaterThan(100);
  });
});

describe('escapeHtml', () => {
  it('escapes the five characters that end text or a quoted attribute', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });
});
