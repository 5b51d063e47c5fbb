import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { RouterProvider } from 'react-router';
import { Toaster } from 'sonner';
import { onUnauthorized } from '../lib/api-client';
import { createQueryClient } from '../lib/query-client';
import { seedFirstData } from '../lib/first-data';
import { createRouter } from './router';
import { SandboxBanner } from './sandbox-banner';
import { paths, loginPath } from '../lib/paths';

export function App() {
  const [queryClient] = useState(() => {
    const client = createQueryClient();
    seedFirstData(client);
    return client;
  });
  const [router] = useState(createRouter);

  useEffect(
    () =>
      onUnauthorized(() => {
        queryClient.clear();
        const { pathname, search } = router.state.location;
        if (pathname === paths.login) return; // several calls can fail at once; send the person once
        void router.navigate(loginPath(pathname + search, 'expired'), { replace: true });
      }),
    [queryClient, router],
  );

  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <SandboxBanner />
      <Toaster position="top-center" richColors closeButton />
    </QueryClientProvider>
  );
}
