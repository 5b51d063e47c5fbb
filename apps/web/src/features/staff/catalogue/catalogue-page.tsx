import { StaffPageHeader } from '../components/staff-layout';
import { CreditPacksEditor } from './credit-packs-editor';
import { RedeemProductsEditor } from './redeem-products-editor';
import { UpgradePricesEditor } from './upgrade-prices-editor';

/**
 * Issue 12: what customers can buy, in three editors (upgrade prices and their provider price ids, credit packs,
 * redeem products); every change asks why. Their forms are react-hook-form on the contracts' schemas (ADR 043).
 */
export function CataloguePage() {
  return (
    <>
      <StaffPageHeader title="Catalogue" description="What customers can buy, and for how much." />
      <UpgradePricesEditor />
      <CreditPacksEditor />
      <RedeemProductsEditor />
    </>
  );
}
