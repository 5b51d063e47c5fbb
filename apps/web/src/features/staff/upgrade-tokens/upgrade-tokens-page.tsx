import type { StaffUpgradeToken } from '@keyport/shared/contracts/upgrades';
import { UPGRADE_PATHS, upgradePathLabel, type UpgradePath } from '@keyport/shared/domain/upgrade-paths';
import { Download } from 'lucide-react';
import { useEffect, useId, useMemo, useState } from 'react';
import { Badge } from '../../../components/ui/badge';
import { Field } from '../../../components/ui/field';
import { Select } from '../../../components/ui/select';
import { ConfirmAction } from '../components/confirm-action';
import { DataTable, type Column } from '../components/data-table';
import { StaffPageHeader } from '../components/staff-layout';
import { TableFilters, type FilterField } from '../components/table-filters';
import { createdOrder, NEWEST_FIRST, useTableParams } from '../components/use-table-params';
import { useUpgradeTokens, type UpgradeTokensQuery } from './api/list-upgrade-tokens';
import { useMintUpgradeTokens } from './api/mint-upgrade-tokens';
import { useRevokeUpgradeToken } from './api/revoke-upgrade-token';
import { tokensCsv, tokensCsvName } from './tokens-csv';

const FILTERS = ['status', 'path'] as const;
type Filter = (typeof FILTERS)[number];

const PATH_OPTIONS = UPGRADE_PATHS.map((path) => ({ value: path, label: upgradePathLabel(path) }));
const FILTER_FIELDS: FilterField<Filter>[] = [
  {
    name: 'status',
    label: 'Status',
    options: [
      { value: 'unused', label: 'Unused' },
      { value: 'used', label: 'Used' },
      { value: 'revoked', label: 'Revoked' },
    ],
  },
  { name: 'path', label: 'Path', options: PATH_OPTIONS },
];

interface Batch {
  path: UpgradePath;
  tokens: string[];
  at: Date;
}

/** The batch just minted: its tokens this once, and the CSV to keep them. */
function MintedBatch({ batch }: { batch: Batch }) {
  const url = useMemo(
    () => URL.createObjectURL(new Blob([tokensCsv(batch.path, batch.tokens)], { type: 'text/csv' })),
    [batch],
  );
  useEffect(() => () => URL.revokeObjectURL(url), [url]);
  return (
    <section
      aria-labelledby="minted-batch"
      className="mb-6 space-y-3 rounded-xl border border-emerald-200 bg-emerald-50 p-4"
    >
      <h2 id="minted-batch" className="font-semibold text-emerald-900">
        {batch.tokens.length} {upgradePathLabel(batch.path)} token{batch.tokens.length === 1 ? '' : 's'} minted
      </h2>
      <p className="text-sm text-emerald-900">
        The portal keeps only a fingerprint of each token: download them now, they are not shown again.
      </p>
      <a
        href={url}
        download={tokensCsvName(batch.path, batch.at)}
        className="inline-flex items-center gap-2 rounded-lg bg-emerald-700 px-3 py-2 text-sm font-medium text-white hover:bg-emerald-800 focus-visible:ring-2 focus-visible:ring-emerald-500 focus-visible:outline-none"
      >
        <Download aria-hidden="true" className="size-4" />
        Download CSV
      </a>
      <ul aria-label="Minted tokens" className="max-h-48 overflow-y-auto font-mono text-xs text-emerald-950">
        {batch.tokens.map((token) => (
          <li key={token}>{token}</li>
        ))}
      </ul>
    </section>
  );
}

function MintAction({ onMinted }: { onMinted: (batch: Batch) => void }) {
  const mint = useMintUpgradeTokens();
  const [path, setPath] = useState<UpgradePath>('LITE_TO_REGULAR');
  const [count, setCount] = useState('10');
  const pathId = useId();
  return (
    <ConfirmAction
      triggerLabel="Mint tokens"
      triggerVariant="primary"
      triggerSize="md"
      title="Mint upgrade tokens"
      description="Each token upgrades one license along its path, once. You get the tokens this once, as a CSV."
      confirmLabel="Mint"
      onConfirm={async (reason) => {
        const minted = await mint.mutateAsync({ body: { path, count: Number(count), reason } });
        onMinted({ path: minted.path, tokens: minted.tokens, at: new Date() });
      }}
    >
      <div className="space-y-1.5">
        <label htmlFor={pathId} className="block text-sm font-medium text-slate-700">
          Path
        </label>
        <Select id={pathId} value={path} onChange={(event) => setPath(event.target.value as UpgradePath)}>
          {PATH_OPTIONS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </Select>
      </div>
      <Field
        label="How many"
        type="number"
        min={1}
        max={500}
        value={count}
        onChange={(event) => setCount(event.target.value)}
        hint="1 to 500"
      />
    </ConfirmAction>
  );
}

/** How staff know a token: by its ending, as the CSV and the person holding it show it ('UPG-…-7QX2K'). */
const tokenEnding = (token: StaffUpgradeToken) => (token.hint ? `UPG-…-${token.hint}` : null);

function RevokeAction({ token }: { token: StaffUpgradeToken }) {
  const revoke = useRevokeUpgradeToken();
  return (
    <ConfirmAction
      triggerLabel="Revoke"
      title={`Revoke token ${tokenEnding(token) ? `${tokenEnding(token)} (#${token.id})` : `#${token.id}`}?`}
      description="The token stops working at once: nobody can redeem it any more. This cannot be undone."
      confirmLabel="Revoke token"
      tone="danger"
      onConfirm={(reason) => revoke.mutateAsync({ params: { id: String(token.id) }, body: { reason } })}
    />
  );
}

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

const COLUMNS: Column<StaffUpgradeToken>[] = [
  {
    key: 'id',
    header: 'Token',
    cell: (token) => (
      <>
        {tokenEnding(token) ? <div className="font-mono whitespace-nowrap">{tokenEnding(token)}</div> : null}
        <div className="text-xs text-slate-500">#{token.id}</div>
      </>
    ),
  },
  { key: 'path', header: 'Path', cell: (token) => upgradePathLabel(token.path) },
  { key: 'status', header: 'Status', cell: (token) => <Badge>{token.status}</Badge> },
  {
    key: 'created',
    header: 'Created',
    sortable: true,
    cell: (token) => (
      <>
        <div>{when(token.created_at)}</div>
        <div className="text-xs text-slate-500">{token.created_by_email ?? ''}</div>
      </>
    ),
  },
  {
    key: 'used',
    header: 'Used',
    cell: (token) =>
      token.used_at ? (
        <>
          <div>{when(token.used_at)}</div>
          <div className="text-xs text-slate-500">{token.used_by_email ?? ''}</div>
        </>
      ) : token.revoked_at ? (
        `Revoked ${when(token.revoked_at)}`
      ) : (
        '—'
      ),
  },
  {
    key: 'actions',
    header: 'Actions',
    cell: (token) => (token.status === 'unused' ? <RevokeAction token={token} /> : null),
  },
];

/** Issue 12: mint tokens per path (a CSV of the batch), list them with who used them, revoke unused ones. */
export function UpgradeTokensPage() {
  const params = useTableParams({ filters: FILTERS, defaultSort: NEWEST_FIRST });
  const [batch, setBatch] = useState<Batch | null>(null);
  const query: UpgradeTokensQuery = {
    ...(params.filters.status ? { status: params.filters.status as UpgradeTokensQuery['status'] } : {}),
    ...(params.filters.path ? { path: params.filters.path as UpgradeTokensQuery['path'] } : {}),
    ...createdOrder(params.sort),
    ...(params.cursor ? { cursor: params.cursor } : {}),
  };
  const tokens = useUpgradeTokens(query);
  return (
    <>
      <StaffPageHeader
        title="Upgrade tokens"
        description="Single-use tokens that upgrade a license along one path."
        actions={<MintAction onMinted={setBatch} />}
      />
      {batch ? <MintedBatch batch={batch} /> : null}
      <TableFilters fields={FILTER_FIELDS} params={params} label="Filter upgrade tokens" />
      <DataTable
        caption="Upgrade tokens"
        columns={COLUMNS}
        rowKey={(token) => token.id}
        rows={tokens.data?.tokens}
        isPending={tokens.isPending}
        error={tokens.error}
        onRetry={() => void tokens.refetch()}
        nextCursor={tokens.data?.next_cursor}
        params={params}
        emptyText="No upgrade tokens match."
      />
    </>
  );
}
