/**
 * §6 Roles: a team member is a user whose role is not null. They see Buy With Credits and can use Marketplace and
 * AI Store Builder. The one place this rule lives (web and server both ask here).
 */
export function isTeamMember(user: { role: string | null } | null | undefined): boolean {
  return user != null && user.role !== null;
}
