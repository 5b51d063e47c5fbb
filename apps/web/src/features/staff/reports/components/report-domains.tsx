import type { StaffStoreReport } from '@keyport/shared/contracts/credits';

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

/** A report's five domains: what the customer typed, the store it was read as, the check they saw, what we know. */
export function ReportDomains({ report }: { report: StaffStoreReport }) {
  return (
    <ol className="space-y-1.5">
      {report.domains.map((row) => {
        const warn = row.known.licensed_keys > 0;
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
          </li>
        );
      })}
    </ol>
  );
}
