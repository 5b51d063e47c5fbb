import { FileArchive, UploadCloud } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { cn } from '../../../lib/cn';
import { formatBytes } from '../../../lib/format-bytes';

/** The export's limit on this page (the server refuses bigger files too, with its own message). */
export const MAX_THEME_ZIP_BYTES = 200 * 1024 * 1024;

export const DROP_ZONE_ERRORS = {
  notZip: 'Choose the theme .zip file you downloaded from Shopify.',
  tooBig: 'This file is larger than 200 MB, which no theme export is. Choose the theme .zip file.',
  several: 'Drop one theme .zip file at a time.',
} as const;

/** Checks a picked or dropped file on the page (the server checks again, and checks the contents). */
export function checkThemeFile(file: File): string | null {
  const zipType = ['application/zip', 'application/x-zip-compressed', 'application/octet-stream', ''];
  if (!/\.zip$/i.test(file.name) || !zipType.includes(file.type)) return DROP_ZONE_ERRORS.notZip;
  if (file.size > MAX_THEME_ZIP_BYTES) return DROP_ZONE_ERRORS.tooBig;
  return null;
}

interface ThemeDropZoneProps {
  file: File | null;
  disabled?: boolean;
  error: string | null;
  onFile: (file: File | null, error: string | null) => void;
}

/** Drop or pick the store's theme export; errors show under the zone. */
export function ThemeDropZone({ file, disabled, error, onFile }: ThemeDropZoneProps) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const errorId = useId();
  const inputId = useId();

  function take(files: FileList | null) {
    if (!files || files.length === 0) return;
    if (files.length > 1) return onFile(null, DROP_ZONE_ERRORS.several);
    const picked = files[0]!;
    const problem = checkThemeFile(picked);
    onFile(problem ? null : picked, problem);
  }

  return (
    <div>
      <div
        data-testid="theme-drop-zone"
        onDragOver={(event) => {
          if (disabled) return;
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(event) => {
          event.preventDefault();
          setOver(false);
          if (!disabled) take(event.dataTransfer.files);
        }}
        className={cn(
          'flex flex-col items-center gap-2 rounded-xl border-2 border-dashed px-4 py-8 text-center transition-colors',
          over ? 'border-brand-500 bg-brand-50' : error ? 'border-red-300 bg-red-50/40' : 'border-slate-300 bg-white',
          disabled && 'opacity-60',
        )}
      >
        {file ? (
          <>
            <FileArchive aria-hidden="true" className="size-8 text-brand-600" />
            <p className="max-w-full truncate font-medium text-slate-900">{file.name}</p>
            <p className="text-sm text-slate-600">{formatBytes(file.size)}</p>
          </>
        ) : (
          <>
            <UploadCloud aria-hidden="true" className="size-8 text-slate-400" />
            <p className="font-medium text-slate-900">Drop your theme .zip here</p>
            <p className="text-sm text-slate-600">or choose it from your computer</p>
          </>
        )}
        <label
          htmlFor={inputId}
          className={cn(
            'mt-2 inline-flex h-9 cursor-pointer items-center rounded-lg border border-slate-300 bg-white px-3 text-sm font-medium text-slate-800 hover:bg-slate-50 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500',
            disabled && 'pointer-events-none',
          )}
        >
          {file ? 'Choose another file' : 'Choose file'}
          <input
            ref={input}
            id={inputId}
            type="file"
            accept=".zip,application/zip"
            disabled={disabled}
            aria-describedby={error ? errorId : undefined}
            aria-invalid={error ? true : undefined}
            className="sr-only"
            onChange={(event) => {
              take(event.target.files);
              event.target.value = '';
            }}
          />
        </label>
      </div>
      {error ? (
        <p id={errorId} role="alert" className="mt-2 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
