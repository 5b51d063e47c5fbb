import { useParams } from 'react-router';
import { KeyDetail } from '../../features/keys/components/key-detail';
import { KeyCardActions } from '../key-card-actions';
import { CardUpgradeAction } from '../theme-upgrade-entry';

/** /customer/my-keys/{id} */
export function KeyPage() {
  const { id } = useParams();
  // Anything but a whole number matches no key, and shows the not-found state.
  const keyId = /^\d{1,12}$/.test(id ?? '') ? Number(id) : -1;
  return (
    <div className="px-4 py-6 sm:px-6">
      <KeyDetail
        keyId={keyId}
        renderActions={(card, key) => <KeyCardActions card={card} licenseKey={key} />}
        renderUpgrade={(_card, key) => <CardUpgradeAction licenseKey={key} />}
      />
    </div>
  );
}
