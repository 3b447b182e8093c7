import type { Source } from './common';
import type { ListPage, ListParams } from './list';
import type { PhotoObject, PhotoUpload, StoredPhoto } from './photo';
import type { Collection, CreatableCollection, CreateInputOf, ResourceOf } from './resources';

/**
 * Who is calling. The channel fills it in, never the caller: records made through the
 * desk's UI are `dashboard`, through an API `api`, by the system itself `system`.
 */
export interface CallContext {
  source: Source;
  /** The request's Idempotency-Key, where it has one; the sync worker sends its entry id. */
  idempotency_key?: string;
  /**
   * Called with the answer inside the create's own transaction, so whatever it writes (the
   * HTTP layer's stored Idempotency-Key response) commits with the record or not at all.
   */
  commit?(resource: unknown): void;
}

/**
 * The /v1 contract as TypeScript (DESIGN.md §1). The host's local service, the sandbox and
 * the upstream HTTP client implement it; one HTTP layer serves any implementation.
 * Inputs are validated by the implementation, so they arrive as `unknown`-shaped data
 * from the wire and are typed here for in-process callers.
 */
export interface V1Service {
  create<K extends CreatableCollection>(collection: K, input: CreateInputOf<K>, context: CallContext): Promise<ResourceOf<K>>;
  get<K extends Collection>(collection: K, id: string): Promise<ResourceOf<K>>;
  list<K extends Collection>(collection: K, params?: ListParams): Promise<ListPage<ResourceOf<K>>>;
  uploadPhoto(photo: PhotoUpload): Promise<PhotoObject>;
  readPhoto(objectKey: string): Promise<StoredPhoto>;
}
