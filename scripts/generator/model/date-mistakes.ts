/**
 * What is wrong with a date an editor wrote, in words that say the fix: a date written the way
 * many European forms write it (`28.02.2023`) is answered with the same date as YYYY-MM-DD, and a
 * day the month does not have is answered with how many days it has that year.
 */
import { ISO_DATE, MONTHS } from './formats.ts';

/** `28.02.2023` (day first, as written in much of Europe), or with slashes, `28/02/2023` or `2/28/2023`. */
const NUMBERS_FIRST = /^(\d{1,2})([./])(\d{1,2})\2(\d{4})$/;

/** Undefined for a real date written YYYY-MM-DD; otherwise the message and, when there is one, the line to write. */
export function dateMistake(text: string): { message: string; write?: string } | undefined {
  const iso = ISO_DATE.test(text) ? text.split('-').map(Number) : undefined;
  const other = iso ? undefined : NUMBERS_FIRST.exec(text.trim());
  const notIso = { message: `${JSON.stringify(text)} is not written YYYY-MM-DD` };
  if (!iso && !other) return notIso;
  const year = iso ? iso[0]! : Number(other![4]);
  let [month, day] = iso ? [iso[1]!, iso[2]!] : [Number(other![3]), Number(other![1])];
  if (other?.[2] === '/' && month <= 12 && day <= 12) return notIso; // 02/03/2023: which is the month is unknown
  if (other?.[2] === '/' && month > 12 && day <= 12) [month, day] = [day, month]; // 2/28/2023
  const wrong = calendarMistake(year, month, day);
  if (wrong) return { message: `${JSON.stringify(text)} is not a date: ${wrong}` };
  if (iso) return undefined;
  const two = (n: number) => String(n).padStart(2, '0');
  return { message: `${JSON.stringify(text)} is not written YYYY-MM-DD`, write: `${year}-${two(month)}-${two(day)}` };
}

function calendarMistake(year: number, month: number, day: number): string | undefined {
  if (month < 1 || month > 12) return `there is no month ${month}`;
  if (day < 1) return `there is no day ${day}`;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
  if (day <= days) return undefined;
  return month === 2 ? `February ${year} has ${days} days` : `${MONTHS[month - 1]} has ${days} days`;
}
