import { useMutation, useQueryClient } from '@tanstack/react-query';
import { saveDomains as saveDomainsContract } from '@keyport/shared/contracts/connect';
import type { BodyOf } from '@keyport/shared/contracts/define';
import { callApi } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const saveDomains = (body: BodyOf<typeof saveDomainsContract>) => callApi(saveDomainsContract, { body });

/** PUT /keys/: saves the domains and returns a new token; the keys, the stores and the token are fetched again. */
export function useSaveDomains() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveDomains,
    onSuccess: (result, body) => {
      queryClient.setQueryData(queryKeys.keyToken(body.key), { tokentheme: result.tokentheme });
      void queryClient.invalidateQueries({ queryKey: queryKeys.keys });
      void queryClient.invalidateQueries({ queryKey: queryKeys.userStores });
    },
  });
}
