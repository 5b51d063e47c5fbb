import { CheckCircle2, Loader2, XCircle } from 'lucide-react';
import { useId, useState, type ClipboardEvent } from 'react';
import { toast } from 'sonner';
import { REPORT_STORE_COUNT, type ReportValidation } from '@keyport/shared/contracts/credits';
import { autoFillMessage, parsePastedStores, REPORT_MESSAGES } from '@keyport/shared/domain/store-report';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/input';
import { ApiError, serverMessage } from '../../../lib/api-client';
import { CREDIT_EVENTS, emitCreditEvent } from '../../../lib/credit-events';
import { useReportStores } from '../api/report-stores';
import { CREDITS_TEXT } from '../messages';
import { CreditsBalance } from './credits-balance';

interface Row {
  value: string;
  /** The server's verdict on the row as last submitted; null once the row is edited. */
  validation: Pick<ReportValidation, 'isValid' | 'reason'> | null;
}

const emptyRows = (): Row[] => Array.from({ length: REPORT_STORE_COUNT }, () => ({ value: '', validation: null }));

/**
 * §8 Report: a refusal the person can act on (429 too many reports, 403 restricted, another 4xx) is the server's own
 * text; a network failure or a 5xx is 'Please try again later.'.
 */
function failureMessage(error: unknown): string {
  const refused = error instanceof ApiError && error.status >= 400 && error.status < 500;
  return (refused ? serverMessage(error) : null) ?? REPORT_MESSAGES.failed;
}

interface ReportStoresDialogProps {
  onClose: () => void;
  /** A report was accepted and earned its credit, pending or available (the dashboard refreshes 200 ms later, §9). */
  onReported: () => void;
}

/**
 * §2 dialog 10 "Earn 1 Free Credit": five store domains; pasted text fills the rows (§5); the server judges each row
 * and grants 1 credit when all five qualify (§4 report dialog), pending until staff approve the report (ADR 037).
 */
export default function ReportStoresDialog({ onClose, onReported }: ReportStoresDialogProps) {
  const [rows, setRows] = useState<Row[]>(emptyRows);
  const [notice, setNotice] = useState<string | null>(null);
  // The verdict on the rows ('…Check the validation status below.') sits above them; a failure to send, above the button.
  const [outcome, setOutcome] = useState<{ message: string; tone: 'error' | 'info'; aboveRows?: boolean } | null>(null);
  const report = useReportStores();
  const baseId = useId();
  const complete = rows.every((row) => row.value.trim() !== '');

  const edit = (index: number, value: string) => {
    setRows((current) => current.map((row, i) => (i === index ? { value, validation: null } : row)));
    setOutcome(null);
  };

  const paste = (index: number, event: ClipboardEvent<HTMLInputElement>) => {
    const found = parsePastedStores(event.clipboardData.getData('text'));
    if (found.length <= 1) return; // one domain (or none): the browser pastes it as typed
    event.preventDefault();
    // The rows from the one pasted into onward (then the earlier ones) take the domains found, up to five.
    const order = [...rows.keys()].map((i) => (index + i) % REPORT_STORE_COUNT);
    setRows((current) => {
      const next = [...current];
      found.forEach((domain, i) => (next[order[i]!] = { value: domain, validation: null }));
      return next;
    });
    setNotice(autoFillMessage(found.length));
    setOutcome(null);
  };

  const submit = () => {
    if (!complete || report.isPending) return;
    setOutcome(null);
    setNotice(null);
    report.mutate(
      rows.map((row) => row.value.trim()),
      {
        onSuccess: (result) => {
          setRows((current) =>
            current.map((row, i) => ({ ...row, validation: result.validations[i] ?? row.validation })),
          );
          if (!result.ok) {
            setOutcome({ message: REPORT_MESSAGES.notQualified, tone: 'error', aboveRows: true });
            return;
          }
          // ADR 037: the spec's text, and when the credit waits for staff, that it does.
          toast.success(
            REPORT_MESSAGES.credited,
            result.credit === 'pending' ? { description: CREDITS_TEXT.reportPending } : undefined,
          );
          emitCreditEvent(CREDIT_EVENTS.creditsBalanceChanged, { balance: result.balance });
          onReported();
          setRows(emptyRows());
          setNotice(null);
          onClose();
        },
        onError: (error) => setOutcome({ message: failureMessage(error), tone: 'error' }),
      },
    );
  };

  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent
        title={CREDITS_TEXT.reportTitle}
        description={CREDITS_TEXT.reportRules}
        busy={report.isPending}
        size="lg"
      >
        <CreditsBalance className="mb-4 rounded-lg bg-slate-50 px-3 py-2" />
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
          className="space-y-3"
        >
          {outcome?.aboveRows ? <Alert tone={outcome.tone}>{outcome.message}</Alert> : null}
          {rows.map((row, index) => {
            const inputId = `${baseId}-store-${index}`;
            const statusId = `${inputId}-status`;
            return (
              <div key={index} className="space-y-1" data-testid="report-row">
                <label htmlFor={inputId} className="block text-sm font-medium text-slate-700">
                  Store {index + 1}
                </label>
                <Input
                  id={inputId}
                  value={row.value}
                  placeholder="store-name.com"
                  autoComplete="off"
                  spellCheck={false}
                  inputMode="url"
                  aria-invalid={row.validation && !row.validation.isValid ? true : undefined}
                  aria-describedby={row.validation ? statusId : undefined}
                  className={row.validation?.isValid ? 'border-emerald-500' : undefined}
                  onChange={(event) => edit(index, event.target.value)}
                  onPaste={(event) => paste(index, event)}
                />
                {row.validation ? (
                  <p
                    id={statusId}
                    className={`flex items-center gap-1.5 text-sm ${row.validation.isValid ? 'text-emerald-700' : 'text-red-600'}`}
                  >
                    {row.validation.isValid ? (
                      <CheckCircle2 aria-hidden="true" className="size-4 shrink-0" />
                    ) : (
                      <XCircle aria-hidden="true" className="size-4 shrink-0" />
                    )}
                    {row.validation.reason}
                  </p>
                ) : null}
              </div>
            );
          })}

          {notice ? (
            <p role="status" className="text-sm text-slate-700">
              {notice}
            </p>
          ) : null}
          {outcome && !outcome.aboveRows ? <Alert tone={outcome.tone}>{outcome.message}</Alert> : null}
          {complete ? null : (
            <p id={`${baseId}-hint`} className="text-sm text-slate-600">
              {REPORT_MESSAGES.allRequired}
            </p>
          )}
          <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={onClose} disabled={report.isPending}>
              Cancel
            </Button>
            <Button
              type="submit"
              disabled={!complete || report.isPending}
              aria-describedby={complete ? undefined : `${baseId}-hint`}
            >
              {report.isPending ? <Loader2 aria-hidden="true" className="size-4 animate-spin" /> : null}
              Submit Report
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
