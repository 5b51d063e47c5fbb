import { useQuery } from '@tanstack/react-query';
import { listAuditLog } from '@keyport/shared/contracts/audit';
import type { QueryOf } from '@keyport/shared/contracts/define';
import { staffQueryOptions } from '../../api/staff-api';

export type AuditLogQuery = NonNullable<QueryOf<typeof listAuditLog>>;

/** GET /staff/audit-log: one page (before_id is the cursor), newest first. */
export const auditLogQueryOptions = (query: AuditLogQuery) => staffQueryOptions(listAuditLog, { query });

export const useAuditLog = (query: AuditLogQuery) => useQuery(auditLogQueryOptions(query));
