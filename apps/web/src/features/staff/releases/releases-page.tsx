import { TIERS, isTier, type Tier } from '@keyport/shared/domain/tiers';
import { useSearchParams } from 'react-router';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs';
import { StaffPageHeader } from '../components/staff-layout';
import { useStaffReleases } from './api/get-staff-releases';
import { ReleaseDetail } from './components/release-detail';
import { ReleaseVersionsTable } from './components/release-versions-table';
import { UploadReleaseForm } from './components/upload-release-form';

/**
 * /staff/releases (issue 12): per edition (a tab, `?edition=` in the URL) the versions, the one customers get, the
 * files of one (`?release=`), and the upload form.
 */
export function ReleasesPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get('edition') ?? '';
  const edition: Tier = isTier(requested) ? requested : 'PRO';
  const selected = Number(searchParams.get('release')) || null;
  const releases = useStaffReleases(edition);

  const setParam = (name: string, value: string | null) =>
    setSearchParams((previous) => {
      const next = new URLSearchParams(previous);
      if (value === null) next.delete(name);
      else next.set(name, value);
      if (name === 'edition') next.delete('release');
      return next;
    });

  return (
    <div className="space-y-6">
      <StaffPageHeader
        title="Releases"
        description="Theme zips per edition. Customers download the current version; without a choice, the newest."
      />
      <Tabs value={edition} onValueChange={(value) => setParam('edition', value)}>
        <TabsList aria-label="Edition" className="max-w-md">
          {TIERS.map((tier) => (
            <TabsTrigger key={tier} value={tier}>
              {tier}
            </TabsTrigger>
          ))}
        </TabsList>
        {TIERS.map((tier) => (
          <TabsContent key={tier} value={tier} className="space-y-6">
            <ReleaseVersionsTable
              releases={releases.data?.releases}
              isPending={releases.isPending}
              error={releases.error}
              currentChosen={releases.data?.current_chosen ?? false}
              selectedId={selected}
              onSelect={(id) => setParam('release', String(id))}
            />
            {selected !== null ? <ReleaseDetail id={selected} /> : null}
          </TabsContent>
        ))}
      </Tabs>
      {/* After an upload, its edition's tab with the new release open (and the form's edition stays that one). */}
      <UploadReleaseForm
        edition={edition}
        onUploaded={(release) =>
          setSearchParams((previous) => {
            const next = new URLSearchParams(previous);
            next.set('edition', release.edition);
            next.set('release', String(release.id));
            return next;
          })
        }
      />
    </div>
  );
}
