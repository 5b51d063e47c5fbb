import { useMutation, useQueryClient } from '@tanstack/react-query';
import { changePassword, updateProfile } from '@keyport/shared/contracts/auth';
import type { BodyOf } from '@keyport/shared/contracts/define';
import { callApi } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BodyOf<typeof updateProfile>) => callApi(updateProfile, { body }),
    onSuccess: (user) => queryClient.setQueryData(queryKeys.me, user),
  });
}

export function useChangePassword() {
  return useMutation({ mutationFn: (body: BodyOf<typeof changePassword>) => callApi(changePassword, { body }) });
}
