import { ToggleGroup } from 'radix-ui';
import { cn } from '../../lib/cn';

interface SegmentedControlProps<T extends string> {
  label: string;
  value: T;
  options: readonly T[];
  onChange: (value: T) => void;
  className?: string;
}

/** One choice out of a few, as a row of buttons (a single-select toggle group). */
export function SegmentedControl<T extends string>({
  label,
  value,
  options,
  onChange,
  className,
}: SegmentedControlProps<T>) {
  return (
    <ToggleGroup.Root
      type="single"
      aria-label={label}
      value={value}
      onValueChange={(next) => {
        if (next) onChange(next as T);
      }}
      className={cn('inline-flex rounded-lg border border-slate-300 bg-white p-0.5', className)}
    >
      {options.map((option) => (
        <ToggleGroup.Item
          key={option}
          value={option}
          className="rounded-md px-3 py-1.5 text-xs font-semibold tracking-wide text-slate-600 hover:text-slate-900 data-[state=on]:bg-slate-900 data-[state=on]:text-white sm:text-sm"
        >
          {option}
        </ToggleGroup.Item>
      ))}
    </ToggleGroup.Root>
  );
}
