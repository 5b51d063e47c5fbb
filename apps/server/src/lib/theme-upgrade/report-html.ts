/** The upgrade report as one self-contained, escaped HTML page (no scripts, no external resources). */
import type { ThemeUpgradeReport } from './report';

export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

function show(value: unknown): string {
  return escapeHtml(typeof value === 'string' ? value : (JSON.stringify(value) ?? 'undefined'));
}

function table(headings: string[], rows: unknown[][]): string {
  if (rows.length === 0) return '<p class="none">None.</p>';
  const head = headings.map((heading) => `<th>${escapeHtml(heading)}</th>`).join('');
  const body = rows.map((row) => `<tr>${row.map((cell) => `<td>${show(cell)}</td>`).join('')}</tr>`).join('\n');
  return `<table><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

function list(items: string[]): string {
  if (items.length === 0) return '<p class="none">None.</p>';
  return `<ul>${items.map((item) => `<li><code>${escapeHtml(item)}</code></li>`).join('')}</ul>`;
}

function describe(side: ThemeUpgradeReport['source']): string {
  return [side.themeName ?? 'Unknown theme', side.edition ?? 'unknown edition', side.version ?? 'unknown version'].join(
    ' · ',
  );
}

export function reportToHtml(report: ThemeUpgradeReport): string {
  const { settings, sections, files, locales } = report;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>Theme upgrade report</title>
<style>
body{font-family:system-ui,sans-serif;margin:2rem;color:#1f2328;line-height:1.4}
table{border-collapse:collapse;width:100%;margin:.5rem 0 1.5rem}
th,td{border:1px solid #d0d7de;padding:.3rem .5rem;text-align:left;vertical-align:top;font-size:.9rem}
td{word-break:break-word}th{background:#f6f8fa}.none{color:#656d76}
</style>
</head>
<body>
<h1>Theme upgrade report</h1>
<p>From <strong>${escapeHtml(describe(report.source))}</strong> to <strong>${escapeHtml(describe(report.target))}</strong>.</p>
<p>${escapeHtml(
    `${report.counts.settingsKept} settings kept, ${report.counts.settingsChanged} changed, ${report.counts.settingsDropped} dropped; ` +
      `${report.counts.sectionsKept} sections and blocks kept, ${report.counts.sectionsDropped} dropped; ` +
      `${report.counts.filesAdded} files added by you copied, ${report.counts.filesEdited} edited by you to review.`,
  )}</p>
<h2>Settings dropped</h2>
${table(
  ['File', 'Where', 'Setting', 'Your value', 'Why'],
  settings.dropped.map((s) => [s.file, s.scope, s.id, s.oldValue, s.reason]),
)}
<h2>Settings changed</h2>
${table(
  ['File', 'Where', 'Setting', 'Value', 'Note'],
  settings.changed.map((s) => [s.file, s.scope, s.id, s.value, s.note]),
)}
<h2>Sections and blocks dropped</h2>
${table(
  ['File', 'Where', 'Type', 'Why', 'Your content'],
  sections.dropped.map((s) => [s.file, s.scope, s.type, s.reason, s.oldValue]),
)}
<h2>Files edited by you — review</h2>
<p>The new version of each file is in the theme; your copy is in the review download.</p>
${list(files.review)}
<h2>Files you added (copied as they are)</h2>
${list(files.added)}
<h2>Translations dropped</h2>
${table(
  ['File', 'Key', 'Your text', 'Why'],
  locales.dropped.map((l) => [l.file, l.key, l.value, l.reason]),
)}
<h2>Translations kept</h2>
${table(
  ['File', 'Key', 'Your text'],
  locales.kept.map((l) => [l.file, l.key, l.value]),
)}
<h2>Sections and blocks kept</h2>
${table(
  ['File', 'Where', 'Type'],
  sections.kept.map((s) => [s.file, s.scope, s.type]),
)}
<h2>Settings kept</h2>
${table(
  ['File', 'Where', 'Setting', 'Value'],
  settings.kept.map((s) => [s.file, s.scope, s.id, s.value]),
)}
<h2>Other files</h2>
<h3>Merged</h3>
${list(files.merged)}
<h3>Updated to the new version</h3>
${list(files.updated)}
<h3>No longer in the new version</h3>
${list(files.removedInTarget)}
<h3>New in this version</h3>
${list(files.newInTarget)}
</body>
</html>
`;
}
