import { paths } from '../../../lib/paths';
/** Where to go after signing in: only a path inside this app, never another origin. */
export function safeNextPath(next: string | null): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return paths.myKeys;
  return next;
}
