import { useQuery } from '@tanstack/react-query';
import { getHomepageSettings, saveHomepageSettings } from '@keyport/shared/contracts/homepage';
import { staffQueryOptions, useStaffMutation } from '../../api/staff-api';

/** GET /staff/homepage-settings?preview=true: the staff draft of the updates feed. */
export const homepageDraftQueryOptions = () => staffQueryOptions(getHomepageSettings, { query: { preview: 'true' } });
export const useHomepageDraft = () => useQuery(homepageDraftQueryOptions());

/** GET /staff/homepage-settings: the feed customers see now. */
export const publishedFeedQueryOptions = () => staffQueryOptions(getHomepageSettings, { query: { preview: 'false' } });
export const usePublishedFeed = () => useQuery(publishedFeedQueryOptions());

/** PUT /staff/homepage-settings: save the draft, or publish it, with a reason (then both views refetch). */
export const useSaveHomepageSettings = () =>
  useStaffMutation(saveHomepageSettings, { invalidates: [getHomepageSettings] });
