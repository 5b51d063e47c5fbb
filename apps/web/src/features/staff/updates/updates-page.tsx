import type { HomepageUpdate } from '@keyport/shared/contracts/homepage';
import { useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Skeleton } from '../../../components/ui/skeleton';
import { serverMessage } from '../../../lib/api-client';
import { ConfirmAction } from '../components/confirm-action';
import { StaffPageHeader } from '../components/staff-layout';
import { useHomepageDraft, usePublishedFeed, useSaveHomepageSettings } from './api/homepage-settings';
import { FeedPreview } from './feed-preview';
import { toDrafts, toUpdates, UpdatesEditor, type UpdateDraft } from './updates-editor';

/**
 * One form of a feed for comparing: every field in one order, an absent link or image as null (the server leaves the
 * keys out; the editor sends null), so an untouched draft equals the saved one.
 */
const comparable = (updates: HomepageUpdate[] | undefined) =>
  JSON.stringify(
    (updates ?? []).map(({ title, body, date, link, image }) => [title, body, date, link ?? null, image ?? null]),
  );
const same = (a: HomepageUpdate[] | undefined, b: HomepageUpdate[] | undefined) => comparable(a) === comparable(b);

const plural = (count: number) => (count === 1 ? '1 update' : `${count} updates`);

/** The editor, its two actions (save the draft, publish), and the saved draft's preview beside it. */
function FeedForm({
  savedDraft,
  published,
}: {
  savedDraft: HomepageUpdate[];
  published: HomepageUpdate[] | undefined;
}) {
  const [drafts, setDrafts] = useState<UpdateDraft[]>(() => toDrafts(savedDraft));
  const save = useSaveHomepageSettings();
  const today = new Date().toISOString().slice(0, 10);
  const checked = toUpdates(drafts);
  const edited = 'updates' in checked ? !same(checked.updates, savedDraft) : true;

  const submit = (publish: boolean) => async (reason: string) => {
    const current = toUpdates(drafts);
    if ('error' in current) throw new Error(current.error);
    const saved = await save.mutateAsync({ body: { updates: current.updates, publish, reason } });
    setDrafts(toDrafts(saved.updates));
  };

  return (
    <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_22rem]">
      <section aria-labelledby="feed-editor-heading" className="min-w-0 space-y-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="feed-editor-heading" className="text-lg font-semibold text-slate-900">
            Draft
          </h2>
          <div className="flex flex-wrap items-center gap-2">
            {edited ? <Badge className="bg-amber-100 text-amber-900">Unsaved changes</Badge> : null}
            <ConfirmAction
              triggerLabel="Save draft"
              triggerSize="md"
              title="Save the draft?"
              description={`Saves these ${plural(drafts.length)} as the draft. Customers keep seeing the published feed until you publish.`}
              confirmLabel="Save draft"
              onConfirm={submit(false)}
            />
            <ConfirmAction
              triggerLabel="Publish"
              triggerVariant="primary"
              triggerSize="md"
              title="Publish the updates feed?"
              description={`Every customer's dashboard shows these ${plural(drafts.length)} at once, in place of the published feed.`}
              confirmLabel="Publish now"
              onConfirm={submit(true)}
            />
          </div>
        </div>
        {'error' in checked && drafts.length > 0 ? <Alert tone="info">{checked.error}</Alert> : null}
        <UpdatesEditor drafts={drafts} onChange={setDrafts} today={today} />
      </section>
      <aside aria-labelledby="feed-preview-heading" className="space-y-3">
        <div className="rounded-xl border border-slate-200 bg-white p-4">
          <h2 id="feed-preview-heading" className="text-sm font-semibold text-slate-900">
            Preview of the saved draft
          </h2>
          <p className="mt-1 mb-3 text-xs text-slate-600">
            {same(savedDraft, published)
              ? 'The same as the published feed.'
              : 'Not published yet: customers see the published feed.'}
          </p>
          <FeedPreview updates={savedDraft} />
        </div>
      </aside>
    </div>
  );
}

/**
 * /staff/updates: the dashboard's updates feed (§3 homepage data). Staff edit a draft, preview it as the server keeps
 * it (`?preview=true`), and publish; every save and publish asks for a reason, recorded in the audit log.
 */
export function UpdatesPage() {
  const draft = useHomepageDraft();
  const published = usePublishedFeed();
  return (
    <>
      <StaffPageHeader
        title="Updates feed"
        description="The updates panel on every customer's dashboard. Save a draft, check its preview, then publish."
      />
      {draft.isPending ? (
        <Skeleton className="h-64 rounded-xl" />
      ) : draft.isError ? (
        <Alert>{serverMessage(draft.error) ?? 'The updates feed could not be loaded.'}</Alert>
      ) : (
        <FeedForm savedDraft={draft.data.updates} published={published.data?.updates} />
      )}
    </>
  );
}
