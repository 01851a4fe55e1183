/**
 * Whether `text` is `parts` joined by `separator` (one character), compared in place: no string
 * of every part joined is made to compare it with (the check index's 250,000 file names,
 * the media cache's 100,000 PDF paths).
 */
export function isJoined(text: string, parts: readonly string[], separator: string): boolean {
  const code = separator.charCodeAt(0);
  let at = 0;
  for (let i = 0; i < parts.length; i++) {
    if (i > 0 && text.charCodeAt(at++) !== code) return false;
    if (!text.startsWith(parts[i]!, at)) return false;
    at += parts[i]!.length;
  }
  return at === text.length;
}
