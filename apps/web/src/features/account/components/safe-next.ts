import { isStaff } from '@keyport/shared/domain/roles';
import { paths } from '../../../lib/paths';

/** Where to go after signing in: only a path inside this app, never another origin. */
export function safeNextPath(next: string | null): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return paths.myKeys;
  return next;
}

/**
 * Where a person lands after signing in: the page they were going to (`next`), else their home: the staff console
 * for staff, the keys dashboard for everyone else (issue 21).
 */
export function landingPath(next: string | null, user: { role: string | null }): string {
  if (next) return safeNextPath(next);
  return isStaff(user) ? paths.staff : paths.myKeys;
}
