import { ArrowLeft, SearchX } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import type { Key } from '@keyport/shared/contracts/keys';
import { Link, useNavigate } from 'react-router';
import { deriveStoreCard, type StoreCard } from '@keyport/shared/domain/store-card';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { focusedOpener } from '../../../components/ui/dialog';
import { EmptyState } from '../../../components/ui/empty-state';
import { Skeleton } from '../../../components/ui/skeleton';
import { useKeys } from '../api/get-keys';
import { DisconnectDialog } from './disconnect-dialog';
import { KeyCard } from './key-card';
import { FETCH_KEYS_FAILED } from './keys-board';
import { paths } from '../../../lib/paths';

/** /customer/my-keys/{id}: one of the user's keys, focused, with its details. Someone else's id is simply not found. */
export function KeyDetail({
  keyId,
  renderActions,
  renderUpgrade,
}: {
  keyId: number;
  renderActions?: (card: StoreCard, key: Key) => ReactNode;
  renderUpgrade?: (card: StoreCard, key: Key) => ReactNode;
}) {
  const keys = useKeys();
  const navigate = useNavigate();
  const [disconnecting, setDisconnecting] = useState<{ card: StoreCard; opener: HTMLElement | null } | null>(null);
  const key = keys.data?.find((k) => k.id === keyId);
  const card = key ? deriveStoreCard(key) : null;

  return (
    <section className="mx-auto max-w-xl space-y-4">
      <Link
        to={paths.myKeys}
        className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        All keys
      </Link>
      {keys.isPending ? (
        <Skeleton className="h-72 rounded-xl" />
      ) : keys.isError ? (
        <Alert>{FETCH_KEYS_FAILED}</Alert>
      ) : card ? (
        <>
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{card.name}</h1>
          <KeyCard
            card={card}
            focused
            onDisconnect={(disconnected) => setDisconnecting({ card: disconnected, opener: focusedOpener() })}
            actions={renderActions && key ? renderActions(card, key) : null}
            upgrade={renderUpgrade && key ? renderUpgrade(card, key) : null}
          />
        </>
      ) : (
        <EmptyState
          icon={<SearchX className="size-10" />}
          title="Key not found"
          text="This key is not in your account."
        >
          <Button asChild>
            <Link to={paths.myKeys}>Back to my keys</Link>
          </Button>
        </EmptyState>
      )}
      <DisconnectDialog
        apiKey={disconnecting?.card.api_key ?? null}
        storeName={disconnecting?.card.name ?? ''}
        opener={disconnecting?.opener}
        onOpenChange={(open) => (open ? undefined : setDisconnecting(null))}
        onDisconnected={() => navigate(paths.myKeys)}
      />
    </section>
  );
}
