import { useRef, type KeyboardEvent } from 'react';
import { cn } from '../../lib/cn';

interface SegmentedControlProps<T extends string> {
  label: string;
  value: T;
  options: readonly T[];
  onChange: (value: T) => void;
  className?: string;
}

const NEXT_KEYS = new Set(['ArrowRight', 'ArrowDown']);
const PREVIOUS_KEYS = new Set(['ArrowLeft', 'ArrowUp']);

/**
 * One choice out of a few, as a row of buttons that is a WAI-ARIA radio group: one tab stop (the checked option);
 * the arrow keys move to the next or previous option and select it, wrapping around; Home and End go to the first
 * and the last; Space selects the focused option.
 */
export function SegmentedControl<T extends string>({
  label,
  value,
  options,
  onChange,
  className,
}: SegmentedControlProps<T>) {
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  // The one tab stop: the checked option (the first when none is).
  const tabStop = options.includes(value) ? value : options[0];

  function select(index: number) {
    const option = options[index];
    if (option === undefined) return;
    buttons.current[index]?.focus();
    onChange(option);
  }

  function onKeyDown(event: KeyboardEvent<HTMLButtonElement>, index: number) {
    const last = options.length - 1;
    let target: number | null = null;
    if (NEXT_KEYS.has(event.key)) target = index === last ? 0 : index + 1;
    else if (PREVIOUS_KEYS.has(event.key)) target = index === 0 ? last : index - 1;
    else if (event.key === 'Home') target = 0;
    else if (event.key === 'End') target = last;
    if (target === null) return;
    event.preventDefault();
    select(target);
  }

  return (
    <div
      role="radiogroup"
      aria-label={label}
      className={cn('inline-flex rounded-lg border border-slate-300 bg-white p-0.5', className)}
    >
      {options.map((option, index) => {
        const checked = option === value;
        return (
          <button
            key={option}
            ref={(element) => {
              buttons.current[index] = element;
            }}
            type="button"
            role="radio"
            aria-checked={checked}
            tabIndex={option === tabStop ? 0 : -1}
            onClick={() => onChange(option)}
            onKeyDown={(event) => onKeyDown(event, index)}
            className={cn(
              'rounded-md px-3 py-1.5 text-xs font-semibold tracking-wide sm:text-sm',
              checked ? 'bg-slate-900 text-white' : 'text-slate-600 hover:text-slate-900',
            )}
          >
            {option}
          </button>
        );
      })}
    </div>
  );
}
