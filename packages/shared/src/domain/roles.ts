/**
 * §6 Roles: a team member is a user whose role is not null. They see Buy With Credits and can use Marketplace and
 * AI Store Builder. The one place this rule lives (web and server both ask here).
 */
export function isTeamMember(user: { role: string | null } | null | undefined): boolean {
  return user != null && user.role !== null;
}

/** Issue 12: the vendor's staff (role 'staff') run the staff console and call the `access: 'staff'` routes. */
export function isStaff(user: { role: string | null } | null | undefined): boolean {
  return user != null && user.role === 'staff';
}
