import { staffApproveReport, staffListReports, staffRejectReport } from '@keyport/shared/contracts/credits';
import { useStaffMutation } from '../../api/staff-api';

/** POST /staff/reports/:id/approve {note}: the credit stays; the note is the audit row's reason. */
export const useApproveReport = () => useStaffMutation(staffApproveReport, { invalidates: [staffListReports] });

/** POST /staff/reports/:id/reject {note}: the credit is clawed back; the note is the audit row's reason. */
export const useRejectReport = () => useStaffMutation(staffRejectReport, { invalidates: [staffListReports] });
