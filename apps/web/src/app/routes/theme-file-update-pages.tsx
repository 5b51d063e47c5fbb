import { useParams } from 'react-router';
import { ThemeUpgradePage } from '../../features/theme-upgrades/components/theme-upgrade-page';
import { isUpgradeFileSlug } from '../../features/theme-upgrades/routing/route-theme-upgrade';
import { NotFoundInShell } from './not-found-page';

/** /customer/update_file?target=…&source=… (§2) */
export function UpdateFilePage() {
  return <ThemeUpgradePage page="update" />;
}

/** /customer/upgrade_file/{lite-to-reg, reg-lite-to-pro, lite-to-pro} (§2); any other name is not found. */
export function UpgradeFilePage() {
  const { slug } = useParams();
  return isUpgradeFileSlug(slug) ? <ThemeUpgradePage key={slug} page={slug} /> : <NotFoundInShell />;
}
