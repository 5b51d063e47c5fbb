import { Search } from 'lucide-react';
import type { StoreTypeFilter } from '@keyport/shared/domain/store-card';
import { Input } from '../../../components/ui/input';
import { SegmentedControl } from '../../../components/ui/segmented-control';

export const TYPE_FILTERS = ['ALL', 'PRO', 'REGULAR', 'LITE'] as const satisfies readonly StoreTypeFilter[];

interface KeysToolbarProps {
  search: string;
  onSearchChange: (value: string) => void;
  type: StoreTypeFilter;
  onTypeChange: (value: StoreTypeFilter) => void;
}

export function KeysToolbar({ search, onSearchChange, type, onTypeChange }: KeysToolbarProps) {
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="relative w-full sm:max-w-xs">
        <Search
          aria-hidden="true"
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400"
        />
        <Input
          type="search"
          aria-label="Search keys"
          placeholder="Search store, domain or key"
          className="pl-9"
          value={search}
          onChange={(e) => onSearchChange(e.target.value)}
        />
      </div>
      <SegmentedControl label="License type" value={type} options={TYPE_FILTERS} onChange={onTypeChange} />
    </div>
  );
}
