import type { ReportedDomainFacts, StaffStoreReport } from '@keyport/shared/contracts/credits';

/** What the portal knows about one reported domain, in words. */
export function domainFactsText(known: StaffStoreReport['domains'][number]['known']): string[] {
  const facts: string[] = [];
  if (known.licensed_keys > 0) {
    facts.push(
      `${known.licensed_keys} key${known.licensed_keys === 1 ? '' : 's'} of ours connected${
        known.reporter_holds_key ? ' (one is the reporter’s)' : ''
      }`,
    );
  } else facts.push('No key of ours connected');
  if (known.other_reports > 0) {
    facts.push(`Reported by ${known.other_reports} other user${known.other_reports === 1 ? '' : 's'}`);
  }
  return facts;
}

const day = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' });

/**
 * Issue 13: the theme's license checks from this domain with a token no key of ours covers (evidence of an unlicensed
 * copy), or null when there were none.
 */
export function sightingsText(sightings: ReportedDomainFacts['sightings']): string | null {
  if (!sightings) return null;
  const first = day.format(new Date(sightings.first_seen_at));
  const last = day.format(new Date(sightings.last_seen_at));
  const count = `${sightings.checkins.toLocaleString('en')} check-in${sightings.checkins === 1 ? '' : 's'}`;
  return `Seen running an unlicensed copy: ${count}, ${first === last ? `on ${first}` : `first ${first}, last ${last}`}`;
}

/** A report's five domains: what the customer typed, the store it was read as, the check they saw, what we know. */
export function ReportDomains({ report }: { report: StaffStoreReport }) {
  return (
    <ol className="space-y-1.5">
      {report.domains.map((row) => {
        const warn = row.known.licensed_keys > 0;
        const seen = sightingsText(row.known.sightings);
        return (
          <li key={row.domain} className="text-sm">
            <span className="font-medium text-slate-900">{row.domain}</span>
            {row.submitted !== row.domain ? <span className="text-slate-500"> (typed “{row.submitted}”)</span> : null}
            <span className={row.validation.isValid ? 'text-emerald-700' : 'text-red-700'}>
              {' '}
              · {row.validation.reason}
            </span>
            <span className={warn ? 'block font-medium text-amber-800' : 'block text-slate-600'}>
              {domainFactsText(row.known).join(' · ')}
            </span>
            {seen ? <span className="block font-medium text-red-800">{seen}</span> : null}
          </li>
        );
      })}
    </ol>
  );
}
