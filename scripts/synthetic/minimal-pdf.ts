/**
 * A small, valid, deterministic PDF 1.4: one A4 page showing a title and optional lines in
 * Helvetica. No dates, no ids: the same arguments always give the same bytes. Used for the sample
 * journal's media, tests and benchmarks.
 */
import { CYRILLIC_LATIN } from '../shared/latin-letters.ts';

/**
 * Transliteration of Cyrillic (Macedonian, Serbian, Russian: the names' transliteration, with ю and я
 * as the PDFs have always written them) and a few symbols the fonts lack.
 */
const ASCII: Record<string, string> = {
  ...CYRILLIC_LATIN,
  ю: 'yu',
  я: 'ya',
  đ: 'dj',
  ł: 'l',
  ø: 'o',
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  µ: 'u',
  '°': ' deg',
  '“': '"',
  '”': '"',
  '„': '"',
  '‘': "'",
  '’': "'",
  '–': '-',
  '—': '-',
  '…': '...',
  '×': 'x',
  '±': '+/-',
  '\u00a0': ' ',
};

/** Printable ASCII only: letters transliterated, accents removed, anything else dropped. */
export function toAscii(text: string): string {
  let out = '';
  for (const char of text) {
    const lower = char.toLowerCase();
    const mapped = ASCII[lower];
    if (mapped === undefined) out += char;
    else out += lower === char ? mapped : mapped.charAt(0).toUpperCase() + mapped.slice(1);
  }
  return out
    .normalize('NFKD')
    .replace(/\s+/g, ' ')
    .replace(/[^\x20-\x7e]/g, '')
    .trim();
}

/** A PDF literal string: `\`, `(` and `)` escaped. */
const pdfString = (text: string) => `(${text.replace(/[\\()]/g, (c) => `\\${c}`)})`;

/** Splits text into lines of at most `width` characters, at spaces where possible. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    for (let rest = word; rest.length > 0; rest = rest.slice(width)) {
      const part = rest.slice(0, width);
      if (line && line.length + 1 + part.length <= width) line += ` ${part}`;
      else {
        if (line) lines.push(line);
        line = part;
      }
    }
  }
  return line ? [...lines, line] : lines;
}

export function minimalPdf(title: string, lines: string[] = []): Buffer {
  const heading = wrap(toAscii(title) || 'Untitled', 55);
  const body = lines.flatMap((l) => wrap(toAscii(l), 90));
  const ops = ['BT', '/F1 16 Tf', '20 TL', '56 780 Td'];
  for (const line of heading) ops.push(`${pdfString(line)} Tj`, 'T*');
  ops.push('/F1 11 Tf', '15 TL', 'T*');
  for (const line of body.slice(0, 42)) ops.push(`${pdfString(line)} Tj`, 'T*');
  ops.push('ET');
  const content = `${ops.join('\n')}\n`;

  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Length ${content.length} >>\nstream\n${content}endstream`,
  ];
  // The second line marks the file as binary (recommended by the PDF reference); latin1 keeps one byte per character.
  let pdf = '%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(pdf.length);
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, '0')} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}
