/**
 * What this module needs of the merge engine (`lib/theme-upgrade`, built on branch tuengine): the interface the
 * engine exports, so the service is wired to it in services.ts and tests can use the same engine.
 */
import type { Tier } from '@keyport/shared/domain/tiers';

export interface ThemeUpgradeInput {
  merchantZipPath: string;
  /** The release the merchant's export started from (same edition and version), when it is still stored. */
  originalZipPath: string | null;
  targetZipPath: string;
  token: string;
  outputPath: string;
  expectedSourceEdition?: Tier;
}

export interface ThemeUpgradeEngine {
  upgradeTheme(input: ThemeUpgradeInput): Promise<unknown>;
  readThemeInfo(zipPath: string): Promise<{ edition: Tier | null; version: string | null; themeName: string | null }>;
  reportToHtml(report: never): string;
  /** The engine's refusal of bad input (ThemeUpgradeError): its code and message become a 4xx. */
  inputError(error: unknown): { code: string; message: string } | null;
}
