import { useMutation, useQueryClient } from '@tanstack/react-query';
import { forgotPassword, login, logout, resetPassword, signup, type Session } from '@keyport/shared/contracts/auth';
import type { BodyOf } from '@keyport/shared/contracts/define';
import { callApi } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { clearSessionToken, setSessionToken } from '../../../lib/session-token';

/** Stores the new session and seeds the `me` query, so the next page renders without a round trip. */
function useStartSession() {
  const queryClient = useQueryClient();
  return (session: Session) => {
    queryClient.clear();
    setSessionToken(session.token);
    queryClient.setQueryData(queryKeys.me, session.user);
  };
}

export function useLogin() {
  const start = useStartSession();
  return useMutation({ mutationFn: (body: BodyOf<typeof login>) => callApi(login, { body }), onSuccess: start });
}

export function useSignup() {
  const start = useStartSession();
  return useMutation({ mutationFn: (body: BodyOf<typeof signup>) => callApi(signup, { body }), onSuccess: start });
}

export function useResetPassword() {
  const start = useStartSession();
  return useMutation({
    mutationFn: (body: BodyOf<typeof resetPassword>) => callApi(resetPassword, { body }),
    onSuccess: start,
  });
}

export function useForgotPassword() {
  return useMutation({ mutationFn: (body: BodyOf<typeof forgotPassword>) => callApi(forgotPassword, { body }) });
}

/** Revokes the session on the server, then forgets it here whatever the server said. */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => callApi(logout).catch(() => undefined),
    onSettled: () => {
      clearSessionToken();
      queryClient.clear();
    },
  });
}
