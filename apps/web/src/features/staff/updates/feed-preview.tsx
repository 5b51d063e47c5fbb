import type { HomepageUpdate } from '@keyport/shared/contracts/homepage';

const dateFormat = new Intl.DateTimeFormat('en', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });

/** A feed as the dashboard's updates panel lists it (date, title, image, text, link), for staff to check. */
export function FeedPreview({ updates }: { updates: HomepageUpdate[] }) {
  if (updates.length === 0) return <p className="text-sm text-slate-600">No updates yet.</p>;
  return (
    <ol className="flex flex-col gap-4">
      {updates.map((update, index) => (
        <li key={index} className="border-l-2 border-brand-100 pl-3">
          <time dateTime={update.date} className="block text-xs text-slate-600">
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
              className="mt-1 block w-fit text-sm font-medium break-all text-brand-700 hover:underline"
            >
              {update.link}
            </a>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
