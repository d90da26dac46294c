import { DevutilError } from '../../errors.js';
import type { MockRecord, Page, PageOf, Store } from '../../storage/types.js';
import { buildMock, buildMockPatch, type MockInput } from './mock-config.js';

/** The calling key's id; anonymous callers (an area opened by `PUBLIC_AREAS`) own no mocks. */
function requireOwner(ownerKeyId: string | undefined): string {
  if (!ownerKeyId) throw new DevutilError('not_found', 'Anonymous callers have no mocks.');
  return ownerKeyId;
}

/**
 * Create and store a mock owned by a key, from a validated create body.
 *
 * @example
 *   const mock = await createMock(store, { status_code: 201, body: 'ok' }, 'key_1', Date.now());
 */
export async function createMock(store: Store, input: MockInput, ownerKeyId: string | undefined, now: number): Promise<MockRecord> {
  const mock = buildMock(input, requireOwner(ownerKeyId), now);
  await store.mocks.createMock(mock);
  return mock;
}

/**
 * A page of the key's live mocks, newest first.
 *
 * @example
 *   const page = await listOwnedMocks(store, 'key_1', { limit: 50, offset: 0 }, Date.now());
 */
export async function listOwnedMocks(store: Store, ownerKeyId: string | undefined, page: Page, now: number): Promise<PageOf<MockRecord>> {
  return store.mocks.listMocks(requireOwner(ownerKeyId), page, now);
}

/**
 * The key's live mock with this id. Unknown, expired, deleted and foreign mocks are all the same
 * `not_found`, so an id owned by someone else reveals nothing.
 *
 * @example
 *   const mock = await findOwnedMock(store, 'mock_abc', 'key_1', Date.now());
 */
export async function findOwnedMock(store: Store, mockId: string, ownerKeyId: string | undefined, now: number): Promise<MockRecord> {
  const mock = await store.mocks.getMock(mockId, now);
  if (!mock || mock.ownerKeyId !== requireOwner(ownerKeyId)) throw new DevutilError('not_found', `No mock with id ${mockId}.`);
  return mock;
}

/**
 * Change the given fields of an owned mock (a validated PATCH body) and return it as it is now.
 *
 * @example
 *   const mock = await updateOwnedMock(store, 'mock_abc', { delay_ms: 500 }, 'key_1', Date.now());
 */
export async function updateOwnedMock(
  store: Store,
  mockId: string,
  input: MockInput,
  ownerKeyId: string | undefined,
  now: number,
): Promise<MockRecord> {
  await findOwnedMock(store, mockId, ownerKeyId, now);
  const updated = await store.mocks.updateMock(mockId, buildMockPatch(input, now), now);
  if (!updated) throw new DevutilError('not_found', `No mock with id ${mockId}.`);
  return updated;
}

/**
 * Delete an owned mock; its serving path answers 404 afterwards.
 *
 * @example
 *   await deleteOwnedMock(store, 'mock_abc', 'key_1', Date.now());
 */
export async function deleteOwnedMock(store: Store, mockId: string, ownerKeyId: string | undefined, now: number): Promise<void> {
  const mock = await findOwnedMock(store, mockId, ownerKeyId, now);
  await store.mocks.deleteMock(mock.id);
}
