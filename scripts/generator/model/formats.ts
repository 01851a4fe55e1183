/**
 * The contract's value formats (SPEC section 2), as small pure checks.
 * Each returns true when the value is acceptable; the schema attaches the message.
 */

/**
 * SPEC 2.2: `<4 digits> - <4 digits>`, the hyphen with exactly one space on each side. The last
 * character may be `X`, the check character ISO 3297 writes for 10 (about one ISSN in eleven): the
 * contract's shape describes the original deployment's ISSN, not every journal's.
 */
export const ISSN = /^\d{4} - \d{3}[\dX]$/;

/** SPEC 2.2 / 2.3: `YYYY-MM-DD`. Shape only; `isCalendarDate` checks the day exists. */
export const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** SPEC 2.2: page numbers written as decimal digits. */
export const PAGE = /^\d+$/;

/** SPEC 2.2: UDC codes are numbers separated by one space (a number may carry decimals: 574.5). */
export const VOLUME_UDC = /^\d+(?:\.\d+)*(?: \d+(?:\.\d+)*)*$/;

/** Canonical Roman numerals 1..3999 (no `IIII`, no `VX`). */
export const ROMAN = /^M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})$/;

/** SPEC 2.2: the volume label is `Volume <roman_numeral>`. */
export const VOLUME_LABEL = /^Volume ([IVXLCDM]+)$/;

export function isCanonicalRoman(numeral: string): boolean {
  return numeral.length > 0 && ROMAN.test(numeral);
}

export function romanToNumber(numeral: string): number {
  const values: Record<string, number> = { I: 1, V: 5, X: 10, L: 50, C: 100, D: 500, M: 1000 };
  let total = 0;
  for (let i = 0; i < numeral.length; i++) {
    const value = values[numeral[i]!] ?? 0;
    const next = values[numeral[i + 1] ?? ''] ?? 0;
    total += value < next ? -value : value;
  }
  return total;
}

const ROMAN_VALUES: readonly [number, string][] = [
  [1000, 'M'],
  [900, 'CM'],
  [500, 'D'],
  [400, 'CD'],
  [100, 'C'],
  [90, 'XC'],
  [50, 'L'],
  [40, 'XL'],
  [10, 'X'],
  [9, 'IX'],
  [5, 'V'],
  [4, 'IV'],
  [1, 'I'],
];

/** 4 → `IV`: the numeral a volume's label takes (romanToNumber, the other way round). */
export function numberToRoman(n: number): string {
  let out = '';
  for (const [value, numeral] of ROMAN_VALUES) for (; n >= value; n -= value) out += numeral;
  return out;
}

/** The months' names in English, January first: dates in pages and messages read the same everywhere. */
export const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

export function isCalendarDate(value: string): boolean {
  if (!ISO_DATE.test(value)) return false;
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  if (m < 1 || m > 12 || d < 1) return false;
  const daysInMonth = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return d <= daysInMonth;
}

/**
 * File names inside the media folder: letters, digits, `.`, `_`, `-`; no spaces (URLs stay
 * unescaped) and never `..` (nothing may leave `content/media/`).
 */
const SAFE_NAME = '[A-Za-z0-9_-][A-Za-z0-9._-]*';

/** SPEC 2.3: manuscript PDFs are published at `/media/pdfs/<file_name>.pdf`. */
export const DOCUMENT_PATH = new RegExp(`^pdfs/${SAFE_NAME}\\.pdf$`);

/** SPEC 2.2: volume PDFs are published at `/media/volumes/pdfs/<year>/<file_name>.pdf`. */
export const VOLUME_PDF_PATH = new RegExp(`^volumes/pdfs/\\d{4}/${SAFE_NAME}\\.pdf$`);

/**
 * An absolute URL kept as published (an imported deployment's media host). Its path must have
 * the same shape as a local file's URL would.
 */
export function absoluteMediaPath(value: string): string | undefined {
  if (!/^https?:\/\//.test(value)) return undefined;
  try {
    const url = new URL(value);
    if (url.href !== value && url.href !== value + '/') return undefined;
    const path = decodeURIComponent(url.pathname);
    return path.startsWith('/media/') ? path.slice('/media/'.length) : undefined;
  } catch {
    return undefined;
  }
}

/** Keys of records that other records refer to (the file name without extension). */
export const RECORD_KEY = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/**
 * Plain single-line text: no control characters, no surrounding white space.
 * U+2028/U+2029 are line breaks in disguise and are refused here too.
 */
export function isPlainLine(value: string): boolean {
  return value === value.trim() && !/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(value);
}

/** Text that looks like HTML markup, refused in plain fields (titles, names, keywords). */
export function looksLikeMarkup(value: string): boolean {
  return /<\/?[A-Za-z!?]/.test(value);
}
