import type { CreditHistoryEntry } from '@keyport/shared/contracts/credits';
import type { CreditLedgerRow } from './credits.repo';
import type { StoreReportRow } from './store-reports.repo';
import { REPORT_CREDITS } from './store-reports.service';

/** A ledger row of a store report: its grant (`report:12`) or its clawback (`report:12:clawback`). */
export function reportOfSource(sourceRef: string): { reportId: number; clawback: boolean } | null {
  const match = /^report:(\d+)(:clawback)?$/.exec(sourceRef);
  return match ? { reportId: Number(match[1]), clawback: match[2] !== undefined } : null;
}

const KIND_REASON: Record<CreditLedgerRow['kind'], string> = {
  grant: 'Credits added',
  purchase: 'Credits bought',
  debit: 'Credits spent',
  clawback: 'Credits taken back',
};

function ledgerLine(row: CreditLedgerRow, reports: Map<number, StoreReportRow>): CreditHistoryEntry {
  const line = {
    id: `ledger-${row.id}`,
    kind: row.kind,
    state: 'available' as const,
    amount: row.amount,
    balance_after: row.balanceAfter,
    created_at: row.createdAt.toISOString(),
  };
  const ofReport = reportOfSource(row.sourceRef);
  if (ofReport) {
    const report = reports.get(ofReport.reportId);
    const name = `Store report #${ofReport.reportId}`;
    if (ofReport.clawback) return { ...line, reason: `${name} rejected`, note: report?.reviewNote ?? null };
    // Approved: the staff member's note (or the automatic approval's). A report credited on submission (before
    // ADR 037) that is still pending or was rejected later has no decision to show on this line.
    return report?.status === 'approved'
      ? { ...line, reason: `${name} approved`, note: report.reviewNote }
      : { ...line, reason: name, note: null };
  }
  if (row.sourceRef.startsWith('staff:')) {
    return { ...line, reason: row.kind === 'grant' ? 'Added by our team' : 'Removed by our team', note: row.note };
  }
  return { ...line, reason: row.note ?? KIND_REASON[row.kind], note: null };
}

function reportLine(report: StoreReportRow): CreditHistoryEntry {
  const name = `Store report #${report.id}`;
  const line = { id: `report-${report.id}`, kind: 'report' as const, amount: REPORT_CREDITS, balance_after: null };
  if (report.status === 'rejected') {
    return {
      ...line,
      state: 'dropped',
      reason: `${name} rejected: its credit was not added`,
      note: report.reviewNote,
      created_at: (report.reviewedAt ?? report.createdAt).toISOString(),
    };
  }
  return {
    ...line,
    state: 'pending',
    reason: `${name}: pending review`,
    note: null,
    created_at: report.createdAt.toISOString(),
  };
}

/**
 * A customer's credit history (ADR 037): the ledger's movements, each with what it was and the staff member's note on
 * grants, removals, approvals and rejections, and the store reports whose credit never reached the balance (pending,
 * or rejected before approval), newest first, at most `limit` lines.
 *
 * `reports` holds the reports the ledger rows name (for their decision and note); `uncredited` the reports without a
 * ledger row, newest first.
 */
export function buildCreditHistory(input: {
  ledger: CreditLedgerRow[];
  reports: Map<number, StoreReportRow>;
  uncredited: StoreReportRow[];
  limit: number;
}): CreditHistoryEntry[] {
  const lines = [...input.ledger.map((row) => ledgerLine(row, input.reports)), ...input.uncredited.map(reportLine)];
  // Newest first; at the same instant a ledger line (ids grow with time) before a report line.
  return lines.sort((a, b) => b.created_at.localeCompare(a.created_at) || order(b) - order(a)).slice(0, input.limit);
}

const order = (line: CreditHistoryEntry) => (line.id.startsWith('ledger-') ? Number(line.id.slice(7)) : 0);
