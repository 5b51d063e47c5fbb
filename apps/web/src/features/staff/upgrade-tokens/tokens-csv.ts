import type { UpgradePath } from '@keyport/shared/domain/upgrade-paths';

/** A minted batch as CSV (RFC 4180, CRLF): one row per token with its path. Tokens hold only A–Z, 0–9 and '-'. */
export function tokensCsv(path: UpgradePath, tokens: readonly string[]): string {
  return ['token,path', ...tokens.map((token) => `${token},${path}`)].join('\r\n') + '\r\n';
}

/** The file name of a batch: `upgrade-tokens-LITE_TO_REGULAR-2026-11-23T17-40-00.csv`. */
export function tokensCsvName(path: UpgradePath, at: Date): string {
  return `upgrade-tokens-${path}-${at.toISOString().slice(0, 19).replaceAll(':', '-')}.csv`;
}
