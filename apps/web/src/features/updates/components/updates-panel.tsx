import { ExternalLink, Megaphone } from 'lucide-react';
import { useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Skeleton } from '../../../components/ui/skeleton';
import { cn } from '../../../lib/cn';
import { useHomepageFeed } from '../api/get-homepage-data';

const dateFormat = new Intl.DateTimeFormat('en', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });

/**
 * What the panel shows while the feed loads: the shape of the loaded panel, line for line (date, title, three lines of
 * text, the link, and below lg the "Show all" button), so nothing below it moves when the feed arrives.
 */
function UpdatesSkeleton() {
  const line = (width: string, height = 'h-5') => (
    <div className={cn('flex items-center', height)}>
      <Skeleton className={cn('h-3', width)} />
    </div>
  );
  return (
    <div aria-hidden="true" data-testid="updates-skeleton">
      <div className="mt-3 border-l-2 border-slate-100 pl-3">
        {line('w-20', 'h-4')}
        {line('w-2/3')}
        <div className="mt-1">
          {line('w-full')}
          {line('w-11/12')}
          {line('w-3/4')}
        </div>
        <div className="mt-1">{line('w-20')}</div>
      </div>
      <div className="mt-3 lg:hidden">{line('w-36')}</div>
    </div>
  );
}

/**
 * The updates feed built from the staff-managed homepage settings. Below lg it sits above the keys and shows the
 * newest update in a fixed shape (its text kept to three lines, no image) until the person asks for all of them.
 */
export function UpdatesPanel() {
  const feed = useHomepageFeed();
  const [expanded, setExpanded] = useState(false);
  const updates = feed.data?.data.updates ?? [];
  // Below lg, collapsed: hidden on small screens only.
  const collapsed = (className: string) => (expanded ? null : className);
  return (
    <section aria-labelledby="updates-heading" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <h2 id="updates-heading" className="flex items-center gap-2 text-sm font-semibold text-slate-900">
        <Megaphone aria-hidden="true" className="size-4 text-brand-600" />
        Updates
      </h2>
      {feed.isPending ? (
        <UpdatesSkeleton />
      ) : feed.isError ? (
        <p className="mt-3 text-sm text-slate-600">Updates are not available right now.</p>
      ) : (
        <>
          {feed.data.fromCache ? (
            <Alert tone="info" className="mt-3">
              Showing the updates saved on this device; the latest could not be loaded.
            </Alert>
          ) : null}
          {updates.length === 0 ? (
            <p className="mt-3 text-sm text-slate-600">No updates yet.</p>
          ) : (
            <ol className="mt-3 flex flex-col gap-4" data-testid="updates-list">
              {updates.map((update, index) => (
                <li
                  key={`${update.date}-${update.title}`}
                  className={cn('border-l-2 border-brand-100 pl-3', index > 0 && collapsed('hidden lg:block'))}
                >
                  <time dateTime={update.date} className="block text-xs text-slate-500">
                    {dateFormat.format(new Date(`${update.date}T00:00:00Z`))}
                  </time>
                  <h3 className="text-sm font-semibold text-slate-900">{update.title}</h3>
                  {update.image ? (
                    <img
                      src={update.image}
                      alt=""
                      loading="lazy"
                      className={cn('mt-2 rounded-md border border-slate-100', collapsed('hidden lg:block'))}
                    />
                  ) : null}
                  <p
                    className={cn(
                      'mt-1 text-sm whitespace-pre-line text-slate-600',
                      collapsed('line-clamp-3 min-h-15 lg:line-clamp-none lg:min-h-0'),
                    )}
                  >
                    {update.body}
                  </p>
                  {update.link ? (
                    <a
                      href={update.link}
                      target="_blank"
                      rel="noreferrer"
                      className="mt-1 flex w-fit items-center gap-1 text-sm font-medium text-brand-700 hover:underline"
                    >
                      Read more
                      <ExternalLink aria-hidden="true" className="size-3.5" />
                    </a>
                  ) : null}
                </li>
              ))}
            </ol>
          )}
          {updates.length > 0 && !expanded ? (
            <button
              type="button"
              onClick={() => setExpanded(true)}
              className="mt-3 block text-sm font-medium text-brand-700 hover:underline lg:hidden"
            >
              {updates.length > 1 ? `Show all ${updates.length} updates` : 'Show the whole update'}
            </button>
          ) : null}
        </>
      )}
    </section>
  );
}
