import type {
  ReportCreditState,
  ReportedDomainFacts,
  ReportValidation,
  StaffStoreReport,
} from '@keyport/shared/contracts/credits';
import { REPORT_ROW_REASONS, licenseMatchHosts, normaliseReportedStore } from '@keyport/shared/domain/store-report';
import type { Db, DbOrTx } from '../../db/client';
import { isUniqueViolation } from '../../db/pg-errors';
import type { StoreReportStatus } from '../../db/schema';
import { conflict, forbidden, notFound } from '../../http/errors';
import type { RateLimiter } from '../../http/rate-limit';
import type { AuditService } from '../audit/audit.service';
import type { AuthService } from '../auth/auth.service';
import type { ConnectService } from '../connect/connect.service';
import type { KeysService } from '../keys/keys.service';
import type { LicensesService, SightingFacts } from '../licenses/licenses.service';
import type { CreditLedger } from './credit-ledger';
import * as repo from './store-reports.repo';

/** A report that qualifies earns this many credits (§1): pending until staff approve it (ADR 037). */
export const REPORT_CREDITS = 1;
/**
 * A report is approved without staff only when every domain's evidence was first seen at least this long before it:
 * a copy that has been running, not check-ins sent from made-up domains a moment before the report (ADR 037).
 */
export const AUTO_APPROVAL_MIN_EVIDENCE_AGE_MS = 24 * 60 * 60 * 1000;
/** The audit log's actor id of an automatic approval (actor type 'system'). */
export const AUTO_APPROVAL_ACTOR = 'store-report-evidence';
export const AUTO_APPROVAL_NOTE =
  "Approved automatically: the theme's license check saw all five stores running an unlicensed copy.";
/** An account with this many rejected reports can no longer report (§9 "false reports may lead to restrictions"). */
export const REJECTIONS_BEFORE_RESTRICTION = 3;
export const REPORTING_RESTRICTED =
  'Your account can no longer report stores: 3 of your reports were rejected by our team. Contact support if you think this is a mistake.';

export interface StoreReportsDeps {
  db: Db;
  ledger: Pick<CreditLedger, 'grant' | 'clawback' | 'balanceOf'>;
  keys: Pick<KeysService, 'connectionsTo' | 'listKeys'>;
  connect: Pick<ConnectService, 'listUserStores'>;
  auth: Pick<AuthService, 'emailsOf'>;
  audit: Pick<AuditService, 'record'>;
  /** Issue 13: check-ins of a token on a domain no key covers (evidence of a pirated copy). */
  licenses: Pick<LicensesService, 'sightingsOf' | 'reportEvidenceOf'>;
  /** Report submissions per user (a day's allowance). */
  reportLimit: RateLimiter;
  now?: () => Date;
}

/** Who decided a report: a staff member, or the portal on its own evidence. */
type Reviewer = { staffId: number } | { automatic: Record<string, SightingFacts & { key_ids: number[] }> };

/**
 * Store reports (§1, §4, §5, §7; ADR 022): each row checked with the shared rules and the keys' domains, a qualifying
 * report stored and credited in one transaction, and the staff review that approves it or claws its credit back.
 */
export function createStoreReports({
  db,
  ledger,
  keys,
  connect,
  auth,
  audit,
  licenses,
  reportLimit,
  now = () => new Date(),
}: StoreReportsDeps) {
  /** Why each row does or does not qualify (nothing is written). */
  async function validateReport(userId: number, submitted: string[]): Promise<ReportValidation[]> {
    const domains = submitted.map(normaliseReportedStore);
    const valid = domains.filter((domain): domain is string => domain !== null);
    const matchHosts = [...new Set(valid.flatMap(licenseMatchHosts))];
    const [reported, ownKeys, ownStores, connections, sightings] = await Promise.all([
      repo.findReportedDomains(db, userId, valid),
      keys.listKeys(userId),
      connect.listUserStores(userId),
      keys.connectionsTo(matchHosts),
      licenses.sightingsOf(valid),
    ]);
    const own = new Set(
      [
        ...ownKeys.flatMap((key) => [key.linked_app_store, key.main_url, key.myshopify, key.secondary_url]),
        ...ownStores.map((store) => store.myshopify_domain),
        ...connections.filter((c) => c.ownerId === userId).flatMap((c) => c.hosts),
      ].flatMap((value) => {
        const host = value ? normaliseReportedStore(value) : null;
        return host ? [host] : [];
      }),
    );
    const licensed = new Set(connections.flatMap((c) => c.hosts.flatMap((host) => normaliseReportedStore(host) ?? [])));
    const seen = new Set<string>();
    return submitted.map((text, index) => {
      const domain = domains[index] ?? null;
      const row = (reason: string): ReportValidation => ({
        domain: domain ?? text,
        isValid: reason === REPORT_ROW_REASONS.valid || reason === REPORT_ROW_REASONS.seenUnlicensed,
        reason,
      });
      if (domain === null) return row(REPORT_ROW_REASONS.invalidDomain);
      if (seen.has(domain)) return row(REPORT_ROW_REASONS.listedTwice);
      seen.add(domain);
      if (reported.has(domain)) return row(REPORT_ROW_REASONS.alreadyReported);
      const hosts = licenseMatchHosts(domain);
      if (hosts.some((host) => own.has(host))) return row(REPORT_ROW_REASONS.ownStore);
      if (hosts.some((host) => licensed.has(host))) return row(REPORT_ROW_REASONS.holdsLicense);
      // Issue 13: the portal saw a token of ours running there, on a domain no key covers.
      if (sightings.has(domain)) return row(REPORT_ROW_REASONS.seenUnlicensed);
      return row(REPORT_ROW_REASONS.valid);
    });
  }

  /** What the portal knows now about each reported domain: keys of ours on it, and other users' reports of it. */
  async function domainFacts(rows: { userId: number; domain: string }[]) {
    const domains = [...new Set(rows.map((row) => row.domain))];
    const [connections, reports, sightings] = await Promise.all([
      keys.connectionsTo([...new Set(domains.flatMap(licenseMatchHosts))]),
      repo.countReportsOfDomains(db, domains),
      licenses.sightingsOf(domains),
    ]);
    const licensed = connections.map((c) => ({
      ownerId: c.ownerId,
      hosts: new Set(c.hosts.flatMap((host) => normaliseReportedStore(host) ?? [])),
    }));
    return (userId: number, domain: string): ReportedDomainFacts => {
      const hosts = licenseMatchHosts(domain);
      const keysOnIt = licensed.filter((c) => hosts.some((host) => c.hosts.has(host)));
      return {
        licensed_keys: keysOnIt.length,
        reporter_holds_key: keysOnIt.some((c) => c.ownerId === userId),
        other_reports: reports.filter((r) => r.domain === domain && r.userId !== userId).length,
        sightings: sightings.get(domain) ?? null,
      };
    };
  }

  async function toStaffReports(rows: repo.StoreReportRow[]): Promise<StaffStoreReport[]> {
    const ids = rows.map((row) => row.id);
    const people = rows.flatMap((row) => (row.reviewedBy === null ? [row.userId] : [row.userId, row.reviewedBy]));
    const [domains, emails, history, sources] = await Promise.all([
      repo.listReportDomains(db, ids),
      auth.emailsOf(people),
      repo.countReportsByUser(db, [...new Set(rows.map((row) => row.userId))]),
      repo.findReportLedgerSources(db, ids),
    ]);
    const factsOf = await domainFacts(domains);
    return rows.map((row) => {
      const reports = history.get(row.userId) ?? { pending: 0, approved: 0, rejected: 0 };
      return {
        id: row.id,
        status: row.status,
        credit: { amount: REPORT_CREDITS, state: reportCreditState(row, sources) },
        reporter: { id: row.userId, email: emails.get(row.userId) ?? '', rejected_reports: reports.rejected, reports },
        domains: domains
          .filter((domain) => domain.reportId === row.id)
          .map((domain) => {
            const known = factsOf(row.userId, domain.domain);
            return {
              domain: domain.domain,
              submitted: domain.submitted,
              // Only a report whose five rows all passed is stored; a row backed by sightings says so (issue 13).
              validation: {
                isValid: true,
                reason: known.sightings ? REPORT_ROW_REASONS.seenUnlicensed : REPORT_ROW_REASONS.valid,
              },
              known,
            };
          }),
        created_at: row.createdAt.toISOString(),
        reviewed_at: row.reviewedAt?.toISOString() ?? null,
        reviewed_by: row.reviewedBy === null ? null : { id: row.reviewedBy, email: emails.get(row.reviewedBy) ?? '' },
        reviewed_automatically: row.status !== 'pending' && row.reviewedBy === null,
        review_note: row.reviewNote,
      };
    });
  }

  /**
   * Approves a pending report inside the caller's transaction: the conditional update decides it once, then its credit
   * is added (ledger `report:<id>`: unique, so once even for a report credited before ADR 037). Null when the report
   * is not pending.
   */
  async function approveIn(tx: DbOrTx, id: number, reviewer: Reviewer, note: string) {
    const staffId = 'staffId' in reviewer ? reviewer.staffId : null;
    const decided = await repo.decideReport(tx, id, { status: 'approved', reviewedBy: staffId, note });
    if (!decided) return null;
    const granted = await ledger.grant(tx, {
      userId: decided.userId,
      kind: 'grant',
      amount: REPORT_CREDITS,
      sourceRef: `report:${id}`,
      note: `Store report #${id} approved`,
      actorId: staffId,
    });
    await audit.record(tx, {
      actor: staffId === null ? { type: 'system', id: AUTO_APPROVAL_ACTOR } : { type: 'staff', id: staffId },
      action: 'store_report.approved',
      object: { type: 'store_report', id },
      customerUserId: decided.userId,
      reason: note,
      data: {
        ...(granted ? { ledger_id: granted.entry.id, balance: granted.balance, owed: granted.owed } : {}),
        ...('automatic' in reviewer ? { evidence: reviewer.automatic } : {}),
      },
    });
    return { row: decided, account: granted ?? (await ledger.balanceOf(decided.userId, tx)) };
  }

  /**
   * Rejects a pending report: its pending credit is dropped (no ledger row: it never reached the balance). A report
   * credited on submission (before ADR 037) has its credit clawed back instead. Null when the report is not pending.
   */
  async function rejectIn(tx: DbOrTx, id: number, staffId: number, note: string) {
    const decided = await repo.decideReport(tx, id, { status: 'rejected', reviewedBy: staffId, note });
    if (!decided) return null;
    const creditedBefore = (await repo.findReportLedgerSources(tx, [id])).has(`report:${id}`);
    const clawed = creditedBefore
      ? await ledger.clawback(tx, {
          userId: decided.userId,
          amount: REPORT_CREDITS,
          sourceRef: `report:${id}:clawback`,
          note: `Store report #${id} rejected`,
          actorId: staffId,
        })
      : null;
    await audit.record(tx, {
      actor: { type: 'staff', id: staffId },
      action: 'store_report.rejected',
      object: { type: 'store_report', id },
      customerUserId: decided.userId,
      reason: note,
      data: clawed
        ? { credit: 'taken_back', ledger_id: clawed.entry.id, balance: clawed.balance, owed: clawed.owed }
        : { credit: 'dropped' },
    });
    return { row: decided, account: clawed ?? (await ledger.balanceOf(decided.userId, tx)) };
  }

  async function decide(
    staffId: number,
    id: number,
    decision: 'approved' | 'rejected',
    note: string,
  ): Promise<{ report: StaffStoreReport; balance: number; owed: number }> {
    const result = await db.transaction(async (tx) => {
      const decided =
        decision === 'approved' ? await approveIn(tx, id, { staffId }, note) : await rejectIn(tx, id, staffId, note);
      if (!decided) {
        if (!(await repo.findReport(tx, id))) throw notFound('Store report not found.', 'report_not_found');
        throw conflict('This report was already reviewed.', 'report_already_reviewed');
      }
      return decided;
    });
    const [report] = await toStaffReports([result.row]);
    return { report: report!, balance: result.account.balance, owed: result.account.owed };
  }

  /**
   * The portal's own evidence for all five stores (ADR 037), or null: each seen running a token of a key owned by
   * someone else than the reporter, first seen at least a day before the report, on a store no key of ours covers.
   */
  async function automaticApproval(userId: number, domains: string[]) {
    const evidence = await licenses.reportEvidenceOf(domains, userId);
    const cutoff = now().getTime() - AUTO_APPROVAL_MIN_EVIDENCE_AGE_MS;
    const backed = domains.every((domain) => {
      const seen = evidence.get(domain);
      return seen !== undefined && Date.parse(seen.first_seen_at) <= cutoff;
    });
    return backed ? Object.fromEntries(domains.map((domain) => [domain, evidence.get(domain)!])) : null;
  }

  const pendingCredits = async (userId: number, tx: DbOrTx = db) =>
    (await repo.countPendingReportCredits(tx, userId)) * REPORT_CREDITS;

  return {
    /** False once the account has had 3 reports rejected. */
    async canReport(userId: number, tx: DbOrTx = db): Promise<boolean> {
      return (await repo.countRejectedReports(tx, userId)) < REJECTIONS_BEFORE_RESTRICTION;
    },

    /** The credits the user's pending reports hold back (shown with the balance; never spendable). */
    pendingCredits,

    /**
     * §7 POST /credits/report-store. All five rows valid: the report and its domains are stored in one transaction,
     * and its credit is pending until staff approve it (ADR 037), unless the portal's own evidence backs all five
     * stores, which approves it in the same transaction. The unique (user, domain) index decides between the same
     * report sent at once: the losers' insert fails, and they answer with those rows already reported.
     */
    async reportStores(userId: number, submitted: string[]): Promise<ReportOutcome> {
      if ((await repo.countRejectedReports(db, userId)) >= REJECTIONS_BEFORE_RESTRICTION)
        throw forbidden(REPORTING_RESTRICTED, 'reporting_restricted');
      await reportLimit.hit(`report:${userId}`);
      const validations = await validateReport(userId, submitted);
      const outcome = async (ok: boolean, rows: ReportValidation[], credit: ReportOutcome['credit']) => {
        const [account, pending] = await Promise.all([ledger.balanceOf(userId), pendingCredits(userId)]);
        return { ok, validations: rows, balance: account.balance, pending, credit };
      };
      if (!validations.every((row) => row.isValid)) return outcome(false, validations, null);
      const domains = validations.map((row) => row.domain);
      const evidence = await automaticApproval(userId, domains);
      try {
        await db.transaction(async (tx) => {
          const report = await repo.insertReport(tx, userId);
          await repo.insertReportDomains(
            tx,
            report.id,
            userId,
            submitted.map((text, index) => ({ submitted: text, domain: domains[index]! })),
          );
          await audit.record(tx, {
            actor: { type: 'user', id: userId },
            action: 'store_report.submitted',
            object: { type: 'store_report', id: report.id },
            customerUserId: userId,
            data: { domains, credit: evidence ? 'available' : 'pending' },
          });
          if (evidence) await approveIn(tx, report.id, { automatic: evidence }, AUTO_APPROVAL_NOTE);
        });
        return outcome(true, validations, evidence ? 'available' : 'pending');
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        // The same stores were reported at the same moment by another request of this user, which won.
        const again = await validateReport(userId, submitted);
        const rows = again.every((row) => row.isValid)
          ? again.map((row) => ({ ...row, isValid: false, reason: REPORT_ROW_REASONS.alreadyReported }))
          : again;
        return outcome(false, rows, null);
      }
    },

    async listReports(query: { status?: StoreReportStatus; cursor?: string; limit?: number }) {
      const limit = query.limit ?? 50;
      const cursor = query.cursor === undefined ? null : Number(query.cursor);
      const rows = await repo.listReports(db, {
        status: query.status ?? null,
        afterId: query.status ? cursor : null,
        offset: query.status ? 0 : (cursor ?? 0),
        limit,
      });
      const last = rows.at(-1);
      const next = rows.length < limit || !last ? null : String(query.status ? last.id : (cursor ?? 0) + rows.length);
      return { reports: await toStaffReports(rows), next_cursor: next };
    },

    /** A customer's reports, newest first (the staff customer page). */
    async reportsOf(userId: number): Promise<StaffStoreReport[]> {
      return toStaffReports(await repo.listReportsOfUser(db, userId, 50));
    },

    /** Reports naming each of these domains, by status (the sightings staff review, issue 13). */
    reportCountsOfDomains: (domains: string[]) => repo.countReportStatusesOfDomains(db, domains),

    approveReport: (staffId: number, id: number, note: string) => decide(staffId, id, 'approved', note),
    rejectReport: (staffId: number, id: number, note: string) => decide(staffId, id, 'rejected', note),
  };
}

export interface ReportOutcome {
  ok: boolean;
  validations: ReportValidation[];
  balance: number;
  pending: number;
  /** What became of the report's credit; null when nothing was stored. */
  credit: 'pending' | 'available' | null;
}

/** What became of a report's credit, from its status and the ledger rows that exist for it. */
export function reportCreditState(
  row: Pick<repo.StoreReportRow, 'id' | 'status'>,
  ledgerSources: Set<string>,
): ReportCreditState {
  if (ledgerSources.has(`report:${row.id}:clawback`)) return 'taken_back';
  if (ledgerSources.has(`report:${row.id}`)) return 'added';
  if (row.status === 'pending') return 'pending';
  // Approving writes the grant in the same transaction, so an approved report always has it.
  return row.status === 'rejected' ? 'dropped' : 'added';
}
