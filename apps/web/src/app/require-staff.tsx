import type { ReactNode } from 'react';
import { isStaff } from '@keyport/shared/domain/roles';
import { useMe } from '../features/account/api/get-me';

/**
 * Renders `children` only for a signed-in staff member (inside RequireAuth); anyone else gets `otherwise` (the
 * not-found page: the console does not announce itself). The children's code is not even requested for others.
 * The server checks the role on every staff route regardless (ADR 026).
 */
export function RequireStaff({ children, otherwise }: { children: ReactNode; otherwise: ReactNode }) {
  const me = useMe();
  if (me.isPending) return <div aria-busy="true" className="min-h-dvh" />;
  return isStaff(me.data) ? children : otherwise;
}
