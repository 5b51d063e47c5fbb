import { HomepageDataSchema, type HomepageUpdate } from '@keyport/shared/contracts/homepage';
import { ArrowDown, ArrowUp, Plus, Trash2 } from 'lucide-react';
import { useId } from 'react';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { Textarea } from '../../../components/ui/textarea';

/** One update as the form holds it: every field a string ('' for an absent link or image). */
export interface UpdateDraft {
  /** Stable across edits and moves (React key and field ids). */
  uid: string;
  title: string;
  body: string;
  date: string;
  link: string;
  image: string;
}

let nextUid = 0;
const uid = () => `update-${++nextUid}`;

export const toDrafts = (updates: HomepageUpdate[]): UpdateDraft[] =>
  updates.map((update) => ({
    uid: uid(),
    title: update.title,
    body: update.body,
    date: update.date,
    link: update.link ?? '',
    image: update.image ?? '',
  }));

export const emptyDraft = (today: string): UpdateDraft => ({
  uid: uid(),
  title: '',
  body: '',
  date: today,
  link: '',
  image: '',
});

/**
 * The drafts as the server's HomepageUpdate list, checked with the contract's own schema; the first problem as a
 * sentence naming the update ("Update 2: title is required") when there is one.
 */
export function toUpdates(drafts: UpdateDraft[]): { updates: HomepageUpdate[] } | { error: string } {
  const parsed = HomepageDataSchema.safeParse({
    updates: drafts.map(({ title, body, date, link, image }) => ({
      title,
      body,
      date,
      link: link.trim() || null,
      image: image.trim() || null,
    })),
  });
  if (parsed.success) return { updates: parsed.data.updates };
  const issue = parsed.error.issues[0]!;
  const index = issue.path[1];
  return { error: typeof index === 'number' ? `Update ${index + 1}: ${issue.message}` : issue.message };
}

function UpdateFields({
  draft,
  index,
  count,
  onChange,
  onMove,
  onRemove,
}: {
  draft: UpdateDraft;
  index: number;
  count: number;
  onChange: (next: UpdateDraft) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const bodyId = useId();
  const set = (field: keyof Omit<UpdateDraft, 'uid'>) => (event: { target: { value: string } }) =>
    onChange({ ...draft, [field]: event.target.value });
  const name = draft.title.trim() || `Update ${index + 1}`;
  return (
    <li className="rounded-xl border border-slate-200 bg-white p-4">
      <fieldset className="space-y-3">
        <legend className="sr-only">{`Update ${index + 1}`}</legend>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h3 className="text-sm font-semibold text-slate-900">
            {index + 1}. {name}
          </h3>
          <div className="flex gap-1">
            <Button
              variant="ghost"
              size="sm"
              disabled={index === 0}
              onClick={() => onMove(-1)}
              aria-label={`Move "${name}" up`}
            >
              <ArrowUp aria-hidden="true" className="size-4" />
            </Button>
            <Button
              variant="ghost"
              size="sm"
              disabled={index === count - 1}
              onClick={() => onMove(1)}
              aria-label={`Move "${name}" down`}
            >
              <ArrowDown aria-hidden="true" className="size-4" />
            </Button>
            <Button variant="ghost" size="sm" onClick={onRemove} aria-label={`Remove "${name}"`}>
              <Trash2 aria-hidden="true" className="size-4" />
            </Button>
          </div>
        </div>
        <div className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_11rem]">
          <Field label="Title" value={draft.title} onChange={set('title')} maxLength={120} required />
          <Field label="Date" type="date" value={draft.date} onChange={set('date')} required />
        </div>
        <div className="space-y-1.5">
          <label htmlFor={bodyId} className="block text-sm font-medium text-slate-700">
            Text
          </label>
          <Textarea id={bodyId} value={draft.body} onChange={set('body')} maxLength={2000} rows={3} required />
        </div>
        <div className="grid gap-3 sm:grid-cols-2">
          <Field label="Link (optional)" type="url" value={draft.link} onChange={set('link')} placeholder="https://…" />
          <Field
            label="Image URL (optional)"
            type="url"
            value={draft.image}
            onChange={set('image')}
            placeholder="https://…"
          />
        </div>
      </fieldset>
    </li>
  );
}

/** The feed's updates as editable cards: add, edit, reorder and remove; nothing is saved until the page says so. */
export function UpdatesEditor({
  drafts,
  onChange,
  today,
}: {
  drafts: UpdateDraft[];
  onChange: (next: UpdateDraft[]) => void;
  today: string;
}) {
  const move = (index: number, by: -1 | 1) => {
    const next = [...drafts];
    const [moved] = next.splice(index, 1);
    next.splice(index + by, 0, moved!);
    onChange(next);
  };
  return (
    <div className="space-y-3">
      <Button
        variant="secondary"
        onClick={() => onChange([emptyDraft(today), ...drafts])}
        disabled={drafts.length >= 50}
      >
        <Plus aria-hidden="true" className="size-4" />
        Add an update
      </Button>
      {drafts.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 bg-white p-6 text-center text-sm text-slate-600">
          The feed is empty: customers see "No updates yet."
        </p>
      ) : (
        <ol className="space-y-3">
          {drafts.map((draft, index) => (
            <UpdateFields
              key={draft.uid}
              draft={draft}
              index={index}
              count={drafts.length}
              onChange={(changed) => onChange(drafts.map((d) => (d.uid === draft.uid ? changed : d)))}
              onMove={(by) => move(index, by)}
              onRemove={() => onChange(drafts.filter((d) => d.uid !== draft.uid))}
            />
          ))}
        </ol>
      )}
    </div>
  );
}
