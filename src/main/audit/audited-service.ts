import type { Collection, V1Service } from '../../shared/contract';
import { currentActor } from '../support/audit-actor';
import type { AuditLog } from './audit-log';

/** Reference data is not PHI: reading a provider or a payer is not audited. */
const REFERENCE: ReadonlySet<Collection> = new Set(['providers', 'clearinghouse_entities']);

/**
 * The service with every create audited inside the create's own transaction: the entry
 * commits with the record (a record never exists without its entry, nor an entry without
 * its record), and creates that arrive together share one durable commit instead of paying
 * a second fsync each. The desk's bridge creates through this; the local API through
 * `withAuditedService`, which adds reads.
 */
export function withAuditedCreates(service: V1Service, audit: AuditLog): V1Service {
  return {
    ...service,
    async create(collection, input, context) {
      // The commit may run with other requests' creates (group commit), away from this
      // request's context: the actor is taken now.
      const actor = currentActor();
      let audited = false;
      const created = await service.create(collection, input, {
        ...context,
        commit: (resource) => {
          context.commit?.(resource);
          audit.append('create', (resource as { id: string }).id, actor);
          audited = true;
        },
      });
      // A service that has no transaction to offer still leaves its trail.
      if (!audited) audit.append('create', created.id, actor);
      return created;
    },
  };
}

/**
 * The host's service as the local API serves it, with the audit trail the desk's bridge
 * has: every create, every record read, every photo. Unlike the desk (whose screens refresh
 * lists every few seconds), each record a scanner lists is audited as viewed: a list is how
 * an integration would read patients in bulk.
 */
export function withAuditedService(service: V1Service, audit: AuditLog): V1Service {
  return {
    create: withAuditedCreates(service, audit).create,
    async get(collection, id) {
      const record = await service.get(collection, id);
      if (!REFERENCE.has(collection)) audit.append('view', record.id);
      return record;
    },
    async list(collection, params) {
      const page = await service.list(collection, params);
      if (!REFERENCE.has(collection)) for (const record of page.data) audit.append('view', record.id);
      return page;
    },
    async uploadPhoto(photo) {
      const stored = await service.uploadPhoto(photo);
      audit.append('create', stored.object_key);
      return stored;
    },
    async readPhoto(objectKey) {
      const photo = await service.readPhoto(objectKey);
      audit.append('view', objectKey);
      return photo;
    },
  };
}
