import { useCallback, useEffect, useState } from 'react';
import { shouldVerifyVatId, VAT_MESSAGES, VAT_VERIFY_DEBOUNCE_MS } from '@keyport/shared/domain/vat';
import { ApiError } from '../../../lib/api-client';
import { verifyVatNumber } from '../api/verify-vat-number';

/** §3 "VAT check result". */
export interface VatCheckResult {
  status: 'idle' | 'verifying' | 'valid' | 'invalid' | 'error';
  message: string | null;
  companyName: string | null;
  companyAddress: string | null;
  /** The number as VIES read it ('DE123456789'), when valid. */
  vatNumber: string | null;
}

const IDLE: VatCheckResult = {
  status: 'idle',
  message: null,
  companyName: null,
  companyAddress: null,
  vatNumber: null,
};

/**
 * §4 "VAT ID verification": idle → verifying → valid, invalid or error. It starts by itself 1 second after the input
 * pauses once the ID has at least 8 characters; any edit resets it to idle (a result is kept with the text it
 * belongs to, so a changed text is idle at once). `verifyNow` checks without waiting ('Please enter a VAT number'
 * when blank).
 */
export function useVatVerification(vatId: string, enabled: boolean) {
  const text = vatId.trim();
  const [state, setState] = useState<{ for: string; result: VatCheckResult } | null>(null);

  const verify = useCallback(async (value: string, signal?: AbortSignal) => {
    setState({ for: value, result: { ...IDLE, status: 'verifying' } });
    let result: VatCheckResult;
    try {
      const answer = await verifyVatNumber(value, signal);
      result = answer.valid
        ? {
            status: 'valid',
            message: null,
            companyName: answer.company_name,
            companyAddress: answer.company_address,
            vatNumber: answer.vat_number,
          }
        : { ...IDLE, status: 'invalid', message: VAT_MESSAGES.invalid };
    } catch (error) {
      if (signal?.aborted) return;
      // A number the server refuses to look up (malformed) is invalid; VIES not answering is an error.
      const refused = error instanceof ApiError && error.status === 400;
      result = refused
        ? { ...IDLE, status: 'invalid', message: VAT_MESSAGES.invalid }
        : { ...IDLE, status: 'error', message: VAT_MESSAGES.verifyFailed };
    }
    if (signal?.aborted) return;
    setState({ for: value, result });
  }, []);

  useEffect(() => {
    if (!enabled || !shouldVerifyVatId(text)) return;
    const controller = new AbortController();
    const timer = setTimeout(() => void verify(text, controller.signal), VAT_VERIFY_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [text, enabled, verify]);

  const verifyNow = useCallback(() => {
    if (text === '') {
      setState({ for: '', result: { ...IDLE, message: VAT_MESSAGES.required } });
      return;
    }
    void verify(text);
  }, [text, verify]);

  const result = enabled && state && state.for === text ? state.result : IDLE;
  return { result, verifyNow };
}
