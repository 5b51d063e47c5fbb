import {
  DEFAULT_THEME_ZIP_LIMITS,
  isPreparedThemeZipCurrent,
  prepareThemeZip,
  type PreparedThemeZip,
  type ThemeZipLimits,
} from './theme-zip';

/**
 * The scans of the most recently downloaded release zips, so a download with a token does not re-read the central
 * directory and every local header each time (about 10 ms for a small theme, most of a 5 MB download). An entry is
 * used only while its file is unchanged; each stream checks that again.
 */
export function createPreparedZipCache(options: { max: number; limits?: ThemeZipLimits }) {
  const limits = options.limits ?? DEFAULT_THEME_ZIP_LIMITS;
  const entries = new Map<string, Promise<PreparedThemeZip>>();

  function forget(path: string, entry: Promise<PreparedThemeZip>): void {
    if (entries.get(path) === entry) entries.delete(path);
  }

  return {
    async get(path: string): Promise<PreparedThemeZip> {
      const cached = entries.get(path);
      if (cached) {
        const prepared = await cached.catch(() => null);
        if (prepared && (await isPreparedThemeZipCurrent(prepared))) {
          // Most recently used last: the first key is the one to evict.
          entries.delete(path);
          entries.set(path, cached);
          return prepared;
        }
        forget(path, cached);
      }
      const pending = prepareThemeZip(path, limits);
      entries.set(path, pending);
      pending.catch(() => forget(path, pending));
      for (const oldest of entries.keys()) {
        if (entries.size <= options.max) break;
        entries.delete(oldest);
      }
      return pending;
    },
    get size(): number {
      return entries.size;
    },
  };
}
