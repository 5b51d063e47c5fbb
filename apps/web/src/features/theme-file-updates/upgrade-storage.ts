import { z } from 'zod/mini';
import { TIERS } from '@keyport/shared/domain/tiers';
import { STORAGE_KEYS } from '../../lib/storage-keys';

/**
 * §3 local storage `themeUpgradeInfo`: the chosen source and target licenses, written by the card's routing and the
 * choosers before leaving for the upgrade page, read back there (a reload keeps the page's state).
 */
export const ThemeFileUpdateInfoSchema = z.object({
  targetLicenseKey: z.string(),
  targetLicenseType: z.enum(TIERS),
  sourceLicenseKey: z.string(),
  sourceLicenseType: z.enum(TIERS),
  sourceLicenseVersion: z.nullable(z.string()),
});
export type ThemeFileUpdateInfo = z.infer<typeof ThemeFileUpdateInfoSchema>;

/** §3 local storage `upgradeInfo`: the key and store being upgraded, saved before leaving for the upgrade page. */
export const UpgradeInfoSchema = z.object({
  themeKey: z.string(),
  type: z.string(),
  currentLicenseType: z.enum(TIERS),
  targetLicenseType: z.enum(TIERS),
  storeInfo: z.object({ domain: z.string(), myshopify: z.string(), api_key: z.string() }),
});
export type UpgradeInfo = z.infer<typeof UpgradeInfoSchema>;

function read<T>(name: string, schema: z.ZodMiniType<T>): T | null {
  try {
    const raw = localStorage.getItem(name);
    if (raw === null) return null;
    const parsed = schema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null; // storage blocked or damaged JSON: the page asks again
  }
}

function write(name: string, value: unknown): void {
  try {
    localStorage.setItem(name, JSON.stringify(value));
  } catch {
    // Storage full or blocked: the page still gets its keys from the URL.
  }
}

export const readThemeFileUpdateInfo = () => read(STORAGE_KEYS.themeUpgradeInfo, ThemeFileUpdateInfoSchema);
export const readUpgradeInfo = () => read(STORAGE_KEYS.upgradeInfo, UpgradeInfoSchema);
export const writeThemeFileUpdateInfo = (info: ThemeFileUpdateInfo) => write(STORAGE_KEYS.themeUpgradeInfo, info);
export const writeUpgradeInfo = (info: UpgradeInfo) => write(STORAGE_KEYS.upgradeInfo, info);
