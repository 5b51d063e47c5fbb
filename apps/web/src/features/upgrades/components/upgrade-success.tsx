import { CheckCircle2 } from 'lucide-react';
import { Link } from 'react-router';
import { UPGRADE_PATH_TIERS, upgradeThemeFilesPath, type UpgradePath } from '@keyport/shared/domain/upgrade-paths';
import { Button } from '../../../components/ui/button';

interface UpgradeSuccessProps {
  path: UpgradePath;
  onClose: () => void;
  /** Saves what the theme-file update page needs before leaving (§3 upgradeInfo). */
  onUpgradeThemeFiles: () => void;
}

/**
 * §2 the success screen: 'License Upgrade Complete!' with 'Upgrade Theme Files' (lite-to-reg for LITE to REGULAR,
 * reg-lite-to-pro for REGULAR or LITE to PRO) and Close.
 */
export function UpgradeSuccess({ path, onClose, onUpgradeThemeFiles }: UpgradeSuccessProps) {
  const { from, to } = UPGRADE_PATH_TIERS[path];
  return (
    <div className="flex flex-col items-center px-2 py-8 text-center" data-testid="upgrade-success">
      <CheckCircle2 aria-hidden="true" className="mb-3 size-12 text-emerald-600" />
      <h3 className="text-xl font-semibold text-slate-900">License Upgrade Complete!</h3>
      <p className="mt-2 max-w-md text-sm text-slate-600">
        Your license is now {to} (it was {from}). Upgrade your theme files to get the {to} edition in your store.
      </p>
      <div className="mt-6 flex flex-wrap justify-center gap-2">
        <Button asChild>
          <Link to={upgradeThemeFilesPath(path)} onClick={onUpgradeThemeFiles}>
            Upgrade Theme Files
          </Link>
        </Button>
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
      </div>
    </div>
  );
}
