import { useParams } from 'react-router';
import { ThemeFileUpdatePage } from '../../features/theme-file-updates/components/theme-file-update-page';
import { isUpgradeFileSlug } from '../../features/theme-file-updates/routing/route-theme-file-update';
import { NotFoundInShell } from './not-found-page';

/** /customer/update_file?target=…&source=… (§2) */
export function UpdateFilePage() {
  return <ThemeFileUpdatePage page="update" />;
}

/** /customer/upgrade_file/{lite-to-reg, reg-lite-to-pro, lite-to-pro} (§2); any other name is not found. */
export function UpgradeFilePage() {
  const { slug } = useParams();
  return isUpgradeFileSlug(slug) ? <ThemeFileUpdatePage key={slug} page={slug} /> : <NotFoundInShell />;
}
