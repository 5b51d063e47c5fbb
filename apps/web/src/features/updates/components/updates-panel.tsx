import { ExternalLink, Megaphone } from 'lucide-react';
import { useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Skeleton } from '../../../components/ui/skeleton';
import { useHomepageFeed } from '../api/get-homepage-data';

const dateFormat = new Intl.DateTimeFormat('en', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });

/** The updates feed built from the staff-managed homepage settings. */
export function UpdatesPanel() {
  const feed = useHomepageFeed();
  // On small screens the panel sits above the keys: show the newest update until the person asks for more.
  const [expanded, setExpanded] = useState(false);
  return (
    <section aria-labelledby="updates-heading" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <h2 id="updates-heading" className="flex items-center gap-2 text-sm font-semibold text-slate-900">
        <Megaphone aria-hidden="true" className="size-4 text-brand-600" />
        Updates
      </h2>
      {feed.isPending ? (
        <div className="mt-3 space-y-2">
          <Skeleton className="h-4 w-2/3" />
          <Skeleton className="h-12" />
        </div>
      ) : feed.isError ? (
        <p className="mt-3 text-sm text-slate-600">Updates are not available right now.</p>
      ) : (
        <>
          {feed.data.fromCache ? (
            <Alert tone="info" className="mt-3">
              Showing the updates saved on this device; the latest could not be loaded.
            </Alert>
          ) : null}
          {feed.data.data.updates.length === 0 ? (
            <p className="mt-3 text-sm text-slate-600">No updates yet.</p>
          ) : (
            <ol className="mt-3 space-y-4" data-testid="updates-list">
              {feed.data.data.updates.map((update, index) => (
                <li
                  key={`${update.date}-${update.title}`}
                  className={`border-l-2 border-brand-100 pl-3 ${index > 0 && !expanded ? 'hidden lg:block' : ''}`}
                >
                  <time dateTime={update.date} className="text-xs text-slate-500">
                    {dateFormat.format(new Date(`${update.date}T00:00:00Z`))}
                  </time>
                  <h3 className="text-sm font-semibold text-slate-900">{update.title}</h3>
                  {update.image ? (
                    <img src={update.image} alt="" loading="lazy" className="mt-2 rounded-md border border-slate-100" />
                  ) : null}
                  <p className="mt-1 text-sm whitespace-pre-line text-slate-600">{update.body}</p>
                  {update.link ? (
                    <a
                      href={update.link}
                      target="_blank"
                      rel="noreferrer"
                      className="mt-1 inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline"
                    >
                      Read more
                      <ExternalLink aria-hidden="true" className="size-3.5" />
                    </a>
                  ) : null}
                </li>
              ))}
            </ol>
          )}
          {feed.data.data.updates.length > 1 && !expanded ? (
            <button
              type="button"
              onClick={() => setExpanded(true)}
              className="mt-3 text-sm font-medium text-brand-700 hover:underline lg:hidden"
            >
              Show all {feed.data.data.updates.length} updates
            </button>
          ) : null}
        </>
      )}
    </section>
  );
}
