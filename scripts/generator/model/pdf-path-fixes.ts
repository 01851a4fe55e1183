/**
 * The PDF path to write instead of one that is not valid, when the mistake is one editors make:
 * the path written from the project's root (`content/media/pdfs/x.pdf`), the file name alone
 * (`x.pdf`), an upper-case extension (`X.PDF`), a name with spaces or other characters a URL would
 * have to escape. Undefined when no single path is clearly meant.
 */
export function pdfPathFix(
  written: string,
  field: 'document' | 'pdf',
  shape: RegExp,
): { write: string; why: string } | undefined {
  const why: string[] = [];
  let path = written.trim();
  const inside = /^(?:\.\/)?(?:content\/)?media\//.exec(path);
  if (inside) {
    path = path.slice(inside[0].length);
    why.push('the path inside content/media/');
  }
  const folder = field === 'document' ? 'pdfs/' : undefined;
  if (!path.includes('/')) {
    if (!folder) return undefined; // a volume's PDF needs its year: volumes/pdfs/<year>/
    path = folder + path;
    why.push("a manuscript's PDF is in content/media/pdfs/");
  }
  const slash = path.lastIndexOf('/');
  let name = path.slice(slash + 1);
  let rename = false;
  if (/\.pdf$/i.test(name) && !name.endsWith('.pdf')) {
    name = `${name.slice(0, -4)}.pdf`;
    rename = true;
    why.push('the name ends in .pdf, in small letters');
  }
  const stem = name.replace(/\.pdf$/, '');
  const safe = stem
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[.-]+|-+$/g, '')
    .replace(/-{2,}/g, '-');
  if (safe !== stem && safe !== '') {
    name = `${safe}${name.slice(stem.length)}`;
    rename = true;
    why.push(
      /\s/.test(stem)
        ? 'a file name without spaces: letters, digits, ".", "_" and "-"'
        : 'a file name of the letters a-z and A-Z, digits, ".", "_" and "-"',
    );
  }
  const fixed = path.slice(0, slash + 1) + name;
  if (why.length === 0 || !shape.test(fixed)) return undefined;
  return { write: `${field}: ${fixed}${rename ? ', and rename the file so' : ''}`, why: why.join('; ') };
}
