/**
 * The upgrade report as one self-contained, escaped HTML page (no scripts, no external resources): the same content
 * as report.json — which release the theme was found to be, the counts per group first, then each group's items
 * behind a disclosure (a value, the new version's value, a diff), then what the new version changed by itself.
 */
import {
  REPORT_GROUP_ORDER,
  REPORT_GROUP_TEXT,
  type ReportGroup,
  type ReportItem,
  type ThemeFileUpdateReportBody,
} from '@keyport/shared/contracts/theme-file-updates';
import type { ThemeInfo } from './report';

export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

function show(value: unknown): string {
  return escapeHtml(typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));
}

function itemRow(item: ReportItem): string {
  const where = item.path ? `${item.file} › ${item.path}` : item.file;
  const from = item.from
    ? `<div class="from">was ${show([item.from.file, item.from.path].filter(Boolean).join(' › '))}</div>`
    : '';
  const values = [
    item.yours === undefined ? '' : `<div><span class="label">Yours</span> <code>${show(item.yours)}</code></div>`,
    item.theirs === undefined
      ? ''
      : `<div><span class="label">The new version’s</span> <code>${show(item.theirs)}</code></div>`,
  ].join('');
  const diff =
    item.diff === undefined ? '' : `<details><summary>Diff</summary><pre>${escapeHtml(item.diff)}</pre></details>`;
  return `<tr><td><code>${escapeHtml(where)}</code>${from}</td><td>${escapeHtml(item.reason)}${values}${diff}</td></tr>`;
}

function group(report: ThemeFileUpdateReportBody, name: ReportGroup): string {
  const items = report.items.filter((item) => item.group === name);
  const text = REPORT_GROUP_TEXT[name];
  const body =
    items.length === 0
      ? '<p class="none">Nothing.</p>'
      : `<table><thead><tr><th>Where</th><th>What happened</th></tr></thead><tbody>\n${items.map(itemRow).join('\n')}\n</tbody></table>`;
  return `<details id="${name}"><summary><strong>${text.title}</strong> (${items.length})</summary>
<p>${escapeHtml(text.explanation)}</p>
${body}
</details>`;
}

function fileList(title: string, files: string[]): string {
  if (files.length === 0) return '';
  return `<h3>${escapeHtml(title)} (${files.length})</h3><ul>${files.map((file) => `<li><code>${escapeHtml(file)}</code></li>`).join('')}</ul>`;
}

function describe(side: ThemeInfo): string {
  return [side.themeName ?? 'Unknown theme', side.edition ?? '', side.version ?? ''].filter(Boolean).join(' ');
}

export function reportToHtml(
  report: ThemeFileUpdateReportBody,
  sides?: { source: ThemeInfo; target: ThemeInfo },
): string {
  const { summary, detection, vendor } = report;
  const counts = REPORT_GROUP_ORDER.map(
    (name) =>
      `<li><a href="#${name}"><strong>${summary[name]}</strong> ${REPORT_GROUP_TEXT[name].title.toLowerCase()}</a></li>`,
  ).join('');
  const warnings =
    report.warnings.length === 0
      ? ''
      : `<ul class="warnings">${report.warnings.map((warning) => `<li>${escapeHtml(warning)}</li>`).join('')}</ul>`;
  const heading = sides
    ? `<p>From <strong>${escapeHtml(describe(sides.source))}</strong> to <strong>${escapeHtml(describe(sides.target))}</strong>.</p>`
    : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>Theme upgrade report</title>
<style>
body{font-family:system-ui,sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem;color:#1f2328;line-height:1.45}
.counts{display:flex;flex-wrap:wrap;gap:.5rem;list-style:none;padding:0}
.counts li{border:1px solid #d0d7de;border-radius:.5rem;padding:.4rem .8rem}
.counts a{color:inherit;text-decoration:none}
details{border:1px solid #d0d7de;border-radius:.5rem;padding:.5rem .8rem;margin:.6rem 0}
summary{cursor:pointer}
table{border-collapse:collapse;width:100%;margin:.5rem 0;table-layout:fixed}th:first-child{width:35%}
th,td{border-top:1px solid #d0d7de;padding:.35rem .5rem;text-align:left;vertical-align:top;font-size:.9rem}
td{word-break:break-word}th{background:#f6f8fa}
code{font-size:.85rem;overflow-wrap:anywhere}
pre{background:#f6f8fa;padding:.5rem;font-size:.8rem;white-space:pre-wrap;overflow-wrap:anywhere}
.none,.from,.label{color:#656d76}.warnings{background:#fff8c5;border-radius:.5rem;padding:.5rem 2rem}
</style>
</head>
<body>
<h1>Theme upgrade report</h1>
${heading}
<p>${escapeHtml(detection.summary)}</p>
<ul class="counts">${counts}</ul>
${warnings}
${REPORT_GROUP_ORDER.map((name) => group(report, name)).join('\n')}
<details id="vendor"><summary><strong>Changed by the new version</strong> (files you had not changed: ${vendor.updated.length} updated, ${vendor.added.length} added, ${vendor.removed.length} removed, ${vendor.unchanged} the same)</summary>
${fileList('Updated', vendor.updated)}${fileList('Added', vendor.added)}${fileList('Removed', vendor.removed)}
</details>
</body>
</html>
`;
}
