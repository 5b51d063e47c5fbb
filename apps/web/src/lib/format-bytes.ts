/** A file size for people: `12 KB` under a mebibyte (at least 1 KB), else `3.4 MB`. */
export const formatBytes = (bytes: number) =>
  bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
