import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { Key } from '@keyport/shared/contracts/keys';
import { ownKeysQueryOptions } from '../api/get-keys';
import { checkUpdateAvailability } from '../api/check-availability';
import { THEME_FILE_UPDATE_MESSAGES } from '../messages';
import { routeThemeFileUpdate } from '../routing/route-theme-file-update';
import { saveUpgradeChoice } from '../save-upgrade-choice';

export type RoutingState =
  | { status: 'idle' }
  | { status: 'checking' }
  | { status: 'chooser'; keys: Key[] }
  | { status: 'error'; message: string };

/**
 * A card's "Upgrade Theme": reads the person's keys, applies §4 routing, and either goes to the upgrade page (having
 * saved §3 themeUpgradeInfo / upgradeInfo), opens the source chooser, or says why not.
 */
export function useThemeFileUpdateRouting(card: Key) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [state, setState] = useState<RoutingState>({ status: 'idle' });

  async function start() {
    setState({ status: 'checking' });
    let keys: Key[];
    try {
      keys = await queryClient.fetchQuery(ownKeysQueryOptions());
    } catch {
      setState({ status: 'error', message: THEME_FILE_UPDATE_MESSAGES.checkOptionsFailed });
      return;
    }
    const current = keys.find((key) => key.id === card.id) ?? card;
    const route = routeThemeFileUpdate(current, keys);
    switch (route.kind) {
      case 'page':
        setState({ status: 'idle' });
        await navigate(saveUpgradeChoice({ slug: route.slug, source: route.source, target: route.target }));
        return;
      case 'chooser':
        setState({ status: 'chooser', keys });
        return;
      case 'error':
        // The chooser's empty state says it, and offers Update Current Theme Files (§2 dialog 6).
        setState({ status: 'chooser', keys });
        return;
      case 'check-availability':
        try {
          const availability = await checkUpdateAvailability(queryClient, current.api_key);
          if (availability.kind === 'error') {
            setState({ status: 'error', message: availability.message });
            return;
          }
          setState({ status: 'idle' });
          await navigate(
            saveUpgradeChoice({
              slug: 'update',
              source: current,
              target: current,
              sourceVersion: availability.storeVersion,
            }),
          );
        } catch {
          setState({ status: 'error', message: THEME_FILE_UPDATE_MESSAGES.checkOptionsFailed });
        }
    }
  }

  return { state, start, reset: () => setState({ status: 'idle' }) };
}
