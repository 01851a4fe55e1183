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
  // A volume's PDF is in a folder of its year, which the path alone does not tell: the line to
  // write says where the year goes (YYYY), and is not checked against the shape.
  let year = false;
  if (!path.includes('/')) {
    path = (field === 'document' ? 'pdfs/' : 'volumes/pdfs/YYYY/') + path;
    year = field === 'pdf';
    why.push(
      field === 'document'
        ? "a manuscript's PDF is in content/media/pdfs/"
        : "a volume's PDF is in content/media/volumes/pdfs/, in the folder of its year",
    );
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
  if (why.length === 0 || !shape.test(year ? fixed.replace('YYYY', '2000') : fixed)) return undefined;
  return { write: `${field}: ${fixed}${rename ? ', and rename the file so' : ''}`, why: why.join('; ') };
}
