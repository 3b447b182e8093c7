import type { ChangesParams, ReceivedChangesPage } from './changes';
import type { CardSource, Source } from './common';
import type { ListPage, ListParams } from './list';
import type { PhotoObject, PhotoUpload, StoredPhoto } from './photo';
import type { Collection, CreatableCollection, CreateInputOf, ResourceOf } from './resources';

/**
 * Who is calling. The channel fills it in, never the caller: records made through the
 * desk's UI are `dashboard`, through an API `api`, by the system itself `system`.
 */
export interface CallContext {
  source: Source;
  /** Where a card came from when the channel is more specific than `source`: the vendor's collection page. */
  card_source?: CardSource;
  /** The request's Idempotency-Key, where it has one; the sync worker sends its entry id. */
  idempotency_key?: string;
  /**
   * Called with the answer inside the create's own transaction, so whatever it writes (the
   * HTTP layer's stored Idempotency-Key response) commits with the record or not at all.
   */
  commit?(resource: unknown): void;
}

/**
 * The /v1 contract as TypeScript (docs/architecture.md). The host's local service, the sandbox and
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
  /**
   * The practice's changes feed, after a cursor (docs/decisions.md, the changes feed). Only
   * the practice's service has one: a desk's own (the local API) leaves it out and answers
   * 404. A cursor it no longer keeps is a 410 `cursor_expired`. Records arrive unchecked:
   * a reader checks each on its own, so one bad record does not refuse the page.
   */
  changes?(params: ChangesParams): Promise<ReceivedChangesPage>;
}
