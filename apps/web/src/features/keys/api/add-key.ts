import { useMutation, useQueryClient } from '@tanstack/react-query';
import { addKey as addKeyContract } from '@keyport/shared/contracts/keys';
import { callApi } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const addKey = (key: string) => callApi(addKeyContract, { body: { key: key.trim() } });

/** POST /keys/; on success the user and the keys list are fetched again. */
export function useAddKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addKey,
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.me }),
        queryClient.invalidateQueries({ queryKey: queryKeys.keys }),
      ]);
    },
  });
}
