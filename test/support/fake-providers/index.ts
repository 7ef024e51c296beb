export { startFakeProvider, DEFAULT_EVENT_DELAY_MS, FAKE_BEHAVIOUR_HEADER, type FakeProvider } from './start-fake-provider.js';
export type { FakeBehaviour, FakeProviderKind, FakeProviderOptions, RecordedRequest } from './fake-provider-types.js';
