/**
 * The import's summary: what it wrote and every inference it made (docs/importing.md).
 * Pure: the report in, lines of text out.
 */
import { formatProblem } from '../generator/model/problems.ts';
import type { ImportReport } from './import.ts';
import type { AuthorMatch } from './plan.ts';
import { numeral } from './volume-ids.ts';

const LIST_LIMIT = 20;

export function formatImportSummary(report: ImportReport): string {
  const { counts, inferences: inf, content } = report;
  const lines: string[] = [];
  lines.push(`Imported ${report.source} into ${content}/:`);
  lines.push(
    `  ${counts.authors} authors, ${counts.volumes} volumes, ${counts.manuscripts} manuscripts, ${content}/journal.yaml and the editors' JSON Schemas in ${content}/schemas/` +
      (counts.pdfs ? `; ${counts.pdfs} PDFs (${formatBytes(counts.pdfBytes)}) in ${content}/media/` : ''),
  );
  for (const note of report.sourceNotes) lines.push(`  (${note})`);
  if (report.replaced.length)
    lines.push(`  (--force: replaced the previous tree, which held ${report.replaced.join(', ')})`);
  if (report.jsonFiles.length)
    lines.push(`  written as JSON because YAML could not carry a value exactly: ${report.jsonFiles.join(', ')}`);

  lines.push('', `Volume ids: rule "${inf.volumeIds.rule}"`);
  for (const reason of inf.volumeIds.reasons) lines.push(`  - ${reason}`);
  if (inf.volumeIds.ids.length)
    lines.push(`  ${inf.volumeIds.ids.map((v) => `${numeral(v.label)}=${v.id}`).join(', ')}`);

  const a = inf.authorStrings;
  lines.push(
    '',
    `Author strings in manuscripts: ${a.total}; ${a.matched} matched exactly one author's "<name> <surname>"`,
  );
  if (a.ambiguous.length) {
    lines.push(
      `  ${count(a.ambiguous)} kept as published (as_published) because several author records share the name:`,
    );
    lines.push(
      ...listMatches(a.ambiguous, (m) => `    "${m.text}" (records ${m.candidates.join(', ')}) at ${places(m.at)}`),
    );
  }
  if (a.unmatched.length) {
    lines.push(`  ${count(a.unmatched)} kept as published (as_published) because no author record has the name:`);
    lines.push(...listMatches(a.unmatched, (m) => `    "${m.text}" at ${places(m.at)}`));
  }

  lines.push('', 'Order:');
  for (const list of ['authors', 'volumes', 'manuscripts'] as const) {
    const o = inf.order[list];
    lines.push(
      o.count === 0
        ? `  ${list}: the source order is the default order (${o.rule}); no order field written`
        : `  ${list}: order 1-${o.count} written on the first ${o.count} of ${o.total}: the source leaves the default order (${o.rule}) at position ${(o.firstDifference ?? 0) + 1} (${o.firstDifferenceKey}), and records with an order come first`,
    );
  }

  lines.push('', `${content}/journal.yaml:`);
  for (const j of inf.journal)
    lines.push(`  ${j.field}: ${j.value}  (from ${j.from})${j.placeholder ? '  <- check and edit' : ''}`);
  if (inf.omitted.length)
    lines.push(
      `  left out of the records because the build fills them in: ${inf.omitted.map((o) => `${o.count} ${o.label}`).join('; ')}`,
    );

  if (inf.kept.length) lines.push('', `Kept exactly: ${inf.kept.map((k) => `${k.count} ${k.label}`).join('; ')}`);
  for (const r of report.reordered)
    lines.push(`Note: ${r.count} ${r.list} had their keys in another order; the build writes the contract's order.`);

  if (report.warnings.length) {
    lines.push(
      '',
      `Warnings (${report.warnings.length}): values published as the source has them, for an editor to look at:`,
    );
    lines.push(...report.warnings.slice(0, LIST_LIMIT).map((w) => `  ${formatProblem(w)}`));
    if (report.warnings.length > LIST_LIMIT)
      lines.push(`  ... and ${report.warnings.length - LIST_LIMIT} more (npm run check lists them all)`);
  }
  if (report.refused.length) {
    // Every one is listed: each is a record the build refuses until it is fixed.
    lines.push(
      '',
      `${report.refused.length} value${report.refused.length === 1 ? '' : 's'} the build refuses until fixed (each record was written as the source has it):`,
      ...report.refused.map((p) => `  ${formatProblem(p)}`),
      '',
      `Not checked byte for byte: the build does not run until these are fixed. Each file was read back and holds the source's values exactly.`,
      `Next: fix the values above in ${content}/, then run npm run build.`,
    );
    return lines.join('\n');
  }
  lines.push(
    '',
    report.sourceBytesIdentical
      ? 'Checked: a build of the imported tree writes the three lists byte for byte as the source served them.'
      : "Checked: a build of the imported tree writes the same records, order and values; the source's JSON formatting differs from DRF's (the build writes compact UTF-8 JSON).",
  );
  if (inf.journal.some((j) => j.placeholder))
    lines.push(`Next: edit the fields marked above in ${content}/journal.yaml, then run npm run build.`);
  else lines.push('Next: npm run build');
  return lines.join('\n');
}

function listMatches(matches: readonly AuthorMatch[], line: (m: AuthorMatch) => string): string[] {
  const shown = matches.slice(0, LIST_LIMIT).map(line);
  return matches.length > LIST_LIMIT ? [...shown, `    ... and ${matches.length - LIST_LIMIT} more`] : shown;
}

function count(matches: readonly AuthorMatch[]): string {
  const uses = matches.reduce((n, m) => n + m.at.length, 0);
  return `${uses} string${uses === 1 ? '' : 's'} (${matches.length} name${matches.length === 1 ? '' : 's'})`;
}

function places(at: readonly string[]): string {
  return at.length > 4 ? `${at.slice(0, 3).join(', ')} and ${at.length - 3} more` : at.join(', ');
}

function formatBytes(n: number): string {
  return n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1024 / 1024).toFixed(1)} MiB`;
}
