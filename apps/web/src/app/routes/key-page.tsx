import { useParams } from 'react-router';
import { useKeys } from '../../features/keys/api/get-keys';
import { KeyDetail } from '../../features/keys/components/key-detail';
import { ThemeFileUpdateRuns } from '../../features/theme-file-updates/components/theme-file-update-runs';
import { KeyCardActions } from '../key-card-actions';
import { CardUpgradeAction } from '../theme-file-update-entry';

/** /customer/my-keys/{id} */
export function KeyPage() {
  const { id } = useParams();
  // Anything but a whole number matches no key, and shows the not-found state.
  const keyId = /^\d{1,12}$/.test(id ?? '') ? Number(id) : -1;
  const key = useKeys().data?.find((k) => k.id === keyId);
  return (
    <div className="px-4 py-6 sm:px-6">
      <KeyDetail
        keyId={keyId}
        renderActions={(card, k) => <KeyCardActions card={card} licenseKey={k} />}
        renderUpgrade={(_card, k) => <CardUpgradeAction licenseKey={k} />}
      />
      {key ? (
        <div className="mx-auto max-w-xl">
          <ThemeFileUpdateRuns licenseKey={key.api_key} />
        </div>
      ) : null}
    </div>
  );
}
