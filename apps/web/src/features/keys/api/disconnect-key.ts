import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Key } from '@keyport/shared/contracts/keys';
import { disconnectKey as disconnectKeyContract } from '@keyport/shared/contracts/keys';
import { callApi } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const disconnectKey = (apiKey: string) => callApi(disconnectKeyContract, { body: { apiKey } });

/** POST /keys/delete; the card leaves the list as soon as the server agrees. */
export function useDisconnectKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: disconnectKey,
    onSuccess: (_result, apiKey) => {
      queryClient.setQueryData<Key[]>(queryKeys.keys, (keys) => keys?.filter((key) => key.api_key !== apiKey));
      void queryClient.invalidateQueries({ queryKey: queryKeys.keys });
    },
  });
}
