import { Check } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';

interface ChoiceCardProps {
  /** The radio group's name (one choice per group). */
  name: string;
  value: string | number;
  checked: boolean;
  disabled?: boolean;
  onSelect: () => void;
  'data-testid'?: string;
  /** What the card says, right of the round check mark. */
  children: ReactNode;
}

/** One card of a radio group of cards: the whole card is the label, the radio itself is visually hidden. */
export function ChoiceCard({ name, value, checked, disabled, onSelect, children, ...props }: ChoiceCardProps) {
  return (
    <label
      data-testid={props['data-testid']}
      className={cn(
        'relative flex cursor-pointer items-center gap-3 rounded-xl border p-3 transition-colors',
        'has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500',
        checked ? 'border-brand-500 bg-brand-50/60' : 'border-slate-200 bg-white hover:border-slate-300',
        disabled && 'cursor-not-allowed opacity-60',
      )}
    >
      <input
        type="radio"
        name={name}
        value={value}
        checked={checked}
        disabled={disabled}
        onChange={onSelect}
        className="sr-only"
      />
      <span
        aria-hidden="true"
        className={cn(
          'flex size-5 shrink-0 items-center justify-center rounded-full border',
          checked ? 'border-brand-600 bg-brand-600 text-white' : 'border-slate-300',
        )}
      >
        {checked ? <Check className="size-3.5" /> : null}
      </span>
      {children}
    </label>
  );
}
