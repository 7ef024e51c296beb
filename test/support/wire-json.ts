// A client's or provider's JSON as an end-to-end test reads it: by path, with expect() as the check, so a
// wrong guess fails the assertion. The one `any` of the repository, for tests only: src/ reads untrusted JSON
// as `unknown` and narrows it (src/is-plain-object.ts).
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
export type WireJson = Record<string, any>;
