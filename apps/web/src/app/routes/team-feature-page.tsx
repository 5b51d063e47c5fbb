import { ArrowLeft, Bot, Lock, Store, type LucideIcon } from 'lucide-react';
import { isTeamMember } from '@keyport/shared/domain/roles';
import { Link } from 'react-router';
import { EmptyState } from '../../components/ui/empty-state';
import { Skeleton } from '../../components/ui/skeleton';
import { useMe } from '../../features/account/api/get-me';
import { paths } from '../../lib/paths';

const FEATURES: Record<'marketplace' | 'ai-store', { title: string; icon: LucideIcon; text: string }> = {
  marketplace: {
    title: 'Marketplace',
    icon: Store,
    text: 'Sections, templates and add-ons for the theme. There are no listings yet: the first ones arrive with the marketplace launch.',
  },
  'ai-store': {
    title: 'AI Store Builder',
    icon: Bot,
    text: 'Generate a store set-up from a short description of your brand. The builder is being prepared for team members.',
  },
};

/**
 * /customer/marketplace and /customer/ai-store: open to team members (§6), unavailable to others. Both lead back to
 * the keys (on a phone there is no side panel to go back with).
 */
export function TeamFeaturePage({ feature }: { feature: keyof typeof FEATURES }) {
  const me = useMe();
  const { title, icon: Icon, text } = FEATURES[feature];
  if (me.isPending) return <Skeleton className="m-6 h-40 rounded-xl" />;
  const teamMember = isTeamMember(me.data);
  return (
    <div className="mx-auto max-w-2xl px-4 py-6 sm:px-6">
      <Link
        to={paths.myKeys}
        className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        Back to my keys
      </Link>
      <h1 className="mt-2 mb-4 text-2xl font-semibold tracking-tight">{title}</h1>
      {teamMember ? (
        <EmptyState icon={<Icon className="size-10" />} title={`${title} for team members`} text={text} />
      ) : (
        <EmptyState
          icon={<Lock className="size-10" />}
          title="Soon"
          text={`${title} is available to team members only for now.`}
        />
      )}
    </div>
  );
}
