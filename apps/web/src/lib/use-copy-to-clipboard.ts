import { useCallback, useEffect, useRef, useState } from 'react';
import { COPY_CONFIRM_MS } from '@keyport/shared/domain/constants';

/** Copies text; `copied` is true for 3 seconds afterwards (§9 copy confirmation), then back to normal. */
export function useCopyToClipboard(): { copied: boolean; copy: (text: string) => Promise<void> } {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = useCallback(async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopied(false), COPY_CONFIRM_MS);
    } catch {
      setCopied(false);
    }
  }, []);
  return { copied, copy };
}
