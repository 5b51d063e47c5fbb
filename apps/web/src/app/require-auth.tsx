import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { getSessionToken } from '../lib/session-token';
import { loginPath } from '../lib/paths';

/** Sends a signed-out person to /login, remembering where they were going. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const location = useLocation();
  if (!getSessionToken()) {
    const next = `${location.pathname}${location.search}`;
    return <Navigate to={loginPath(next)} replace />;
  }
  return children;
}
