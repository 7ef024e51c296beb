// Which OCSF 1.9 class (and activity) each kind of audit record becomes: one table, so the
// exporter, the offline verifier and docs/audit-ocsf.md say the same thing. Pure.
import type { AuditKind, AuditRecord } from '../record.js';

export interface OcsfClass {
  class_uid: number;
  class_name: string;
  category_uid: number;
  category_name: string;
  activity_id: number;
  activity_name: string;
}

const API_ACTIVITY = { class_uid: 6003, class_name: 'API Activity', category_uid: 6, category_name: 'Application Activity' } as const;
const AUTHENTICATION = { class_uid: 3002, class_name: 'Authentication', category_uid: 3, category_name: 'Identity & Access Management' } as const;
const ENTITY_MANAGEMENT = { class_uid: 3004, class_name: 'Entity Management', category_uid: 3, category_name: 'Identity & Access Management' } as const;
const APPLICATION_LIFECYCLE = { class_uid: 6002, class_name: 'Application Lifecycle', category_uid: 6, category_name: 'Application Activity' } as const;
const APPLICATION_ERROR = { class_uid: 6008, class_name: 'Application Error', category_uid: 6, category_name: 'Application Activity' } as const;

/** The family of each kind; the activity within it is chosen per record below. */
const FAMILY: Record<AuditKind, 'api' | 'auth' | 'entity' | 'lifecycle' | 'error'> = {
  request: 'api',
  telemetry: 'api',
  'guard.refused': 'api',
  'guard.refused_burst': 'api',
  'realtime.open': 'api',
  'realtime.close': 'api',
  'auth.refused': 'auth',
  'auth.refused_burst': 'auth',
  'login.token_issued': 'auth',
  'login.token_revoked': 'auth',
  'login.code_replayed': 'auth',
  'login.exchange': 'auth',
  'login.key_rotated': 'entity',
  'login.refreshed': 'auth',
  'login.refresh_refused': 'auth',
  'login.refresh_reused': 'auth',
  'settings.delivered': 'api',
  'admin.sign_in': 'auth',
  'admin.refused': 'auth',
  'admin.change': 'entity',
  'gateway.start': 'lifecycle',
  'gateway.stop': 'lifecycle',
  'audit.chain_closed': 'lifecycle',
  'audit.chain_opened': 'lifecycle',
  'audit.gap': 'error',
  'audit.recovered': 'error',
};

/** Authentication activities (OCSF 3002): 1 Logon, 2 Logoff, 3 Authentication Ticket, 4 Service Ticket Request. */
const AUTH_ACTIVITY: Partial<Record<AuditKind, [number, string]>> = {
  'auth.refused': [1, 'Logon'],
  'auth.refused_burst': [1, 'Logon'],
  'admin.sign_in': [1, 'Logon'],
  'admin.refused': [1, 'Logon'],
  'login.code_replayed': [1, 'Logon'],
  'login.token_issued': [3, 'Authentication Ticket'],
  'login.token_revoked': [2, 'Logoff'],
  'login.exchange': [4, 'Service Ticket Request'],
  'login.refreshed': [3, 'Authentication Ticket'],
  'login.refresh_refused': [3, 'Authentication Ticket'],
  'login.refresh_reused': [3, 'Authentication Ticket'],
};

/** Entity Management activities (OCSF 3004) by the verb that ends an admin action or command ("keys.revoke", "teams create"). */
const ENTITY_VERBS: Array<[RegExp, number, string]> = [
  [/(create|add|issue)$/, 1, 'Create'],
  [/(revoke|remove|delete|rm)$/, 4, 'Delete'],
  [/(approve|enable)$/, 8, 'Enable'],
  [/(deny|disable)$/, 9, 'Disable'],
  [/(rotate|rotated|set|update|edit)$/, 3, 'Update'],
];

export function adminActionOf(record: Pick<AuditRecord, 'kind' | 'data' | 'operation'>): string {
  const data = record.data ?? {};
  const named = [data.action, data.command, record.operation].find((value): value is string => typeof value === 'string');
  return named ?? record.kind;
}

function entityActivity(record: AuditRecord): [number, string] {
  const action = adminActionOf(record);
  for (const [pattern, id, name] of ENTITY_VERBS) if (pattern.test(action)) return [id, name];
  return [99, action];
}

/** The class and activity of one record. */
export function ocsfClassOf(record: AuditRecord): OcsfClass {
  switch (FAMILY[record.kind] ?? 'error') {
    case 'api':
      // gw's operations (chat, embeddings, a refusal at the door) are not CRUD: Other, named by gw.
      return { ...API_ACTIVITY, activity_id: 99, activity_name: record.operation ?? record.kind };
    case 'auth': {
      const [id, name] = AUTH_ACTIVITY[record.kind] ?? [99, record.kind];
      return { ...AUTHENTICATION, activity_id: id, activity_name: name };
    }
    case 'entity': {
      const [id, name] = record.kind === 'login.key_rotated' ? [3, 'Update'] as [number, string] : entityActivity(record);
      return { ...ENTITY_MANAGEMENT, activity_id: id, activity_name: name };
    }
    case 'lifecycle':
      return { ...APPLICATION_LIFECYCLE, activity_id: record.kind === 'gateway.start' ? 3 : 4, activity_name: record.kind === 'gateway.start' ? 'Start' : 'Stop' };
    default:
      return { ...APPLICATION_ERROR, activity_id: 99, activity_name: record.kind };
  }
}
