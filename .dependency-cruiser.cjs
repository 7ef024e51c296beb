// The import rules of ../shared/CONVENTIONS.md ("Which way imports run"), checked in the test run
// (test/architecture/import-rules.test.ts). What dependency-cruiser cannot see, property reads
// such as process.env and calls such as Date.now(), test/architecture/source-rules.test.ts greps for.
const pure = '^src/(formats|policy|dlp|routing|canonical|streaming)/|^src/audit/(chain|verify)\\.ts$|^src/errors\\.ts$';
module.exports = {
  forbidden: [
    { name: 'leaf-folders-import-nothing', severity: 'error', comment: 'canonical/ and streaming/ import nothing else from src/ (not even each other)',
      from: { path: '^src/(canonical|streaming)/' }, to: { path: '^src/', pathNot: '^src/$1/' } },
    { name: 'errors-imports-nothing', severity: 'error', comment: 'the error catalog imports nothing from src/',
      from: { path: '^src/errors\\.ts$' }, to: { path: '^src/' } },
    { name: 'pure-code-has-no-io', severity: 'error', comment: 'pure modules use no fs, network, fastify, undici, pino, prom-client',
      from: { path: pure }, to: { path: '^(node:)?(fs|fs/promises|net|http|https|http2|tls|dns|dgram|child_process|worker_threads)$|node_modules/(@types/)?(fastify|@fastify|undici|pino|prom-client|lowdb|commander|ws|@napi-rs|proper-lockfile)/', dependencyTypes: ['core', 'npm'] } },
    { name: 'formats-stay-apart', severity: 'error', comment: 'a format never imports another format (src/formats/shared/ holds the few helpers they share)',
      from: { path: '^src/formats/([^/]+)/' }, to: { path: '^src/formats/([^/]+)/', pathNot: '^src/formats/($1|shared)/' } },
    { name: 'formats-behind-the-registry', severity: 'error',
      comment: 'outside src/formats/, a codec is reached through codec-registry.ts (its DialectCodec methods), never a file of a format folder; shared/ and patch-json-field.ts are the other doors',
      from: { pathNot: '^src/formats/' },
      to: { path: '^src/formats/', pathNot: '^src/formats/(codec-registry\\.ts|patch-json-field\\.ts|shared/)' } },
    { name: 'providers-stay-apart', severity: 'error', comment: 'a provider never imports another provider; only registry.ts imports them all',
      from: { path: '^src/providers/([^/]+)/' }, to: { path: '^src/providers/([^/]+)/', pathNot: '^src/providers/$1/' } },
    { name: 'nothing-imports-cli', severity: 'error', from: { pathNot: '^src/cli/' }, to: { path: '^src/cli/' } },
    { name: 'server-is-imported-only-by-the-root', severity: 'error', comment: 'only the composition root (src/gateway/) builds the server; cli/ reaches it through gateway/',
      from: { pathNot: '^src/(server|gateway)/' }, to: { path: '^src/server/' } },
    { name: 'gateway-is-imported-only-by-cli', severity: 'error', comment: 'the composition root is the top: only `gw serve` starts it',
      from: { pathNot: '^src/(gateway|cli)/' }, to: { path: '^src/gateway/' } },
    { name: 'state-owns-its-shapes', severity: 'error', comment: 'state.json shapes live in src/state/; the pure folders accept them structurally (no import cycle, even type-only)',
      from: { path: '^src/state/' }, to: { path: '^src/(policy|dlp|routing|pipeline|server|gateway|formats)/' } },
    { name: 'one-owner-per-library', severity: 'error', comment: 'fastify → server, undici → upstream, commander → cli, pino → logger, prom-client → metrics, lowdb → state',
      from: { pathNot: '^src/server/' }, to: { path: 'node_modules/(fastify|@fastify)/' } },
    { name: 'undici-only-in-upstream', severity: 'error', from: { pathNot: '^src/upstream/' }, to: { path: 'node_modules/undici/' } },
    { name: 'commander-only-in-cli', severity: 'error', from: { pathNot: '^src/cli/' }, to: { path: 'node_modules/commander/' } },
    { name: 'pino-only-in-logger', severity: 'error', from: { pathNot: '^src/logger\\.ts$' }, to: { path: 'node_modules/pino/' } },
    { name: 'prom-client-only-in-metrics', severity: 'error', from: { pathNot: '^src/metrics/' }, to: { path: 'node_modules/prom-client/' } },
    { name: 'lowdb-only-in-state', severity: 'error', from: { pathNot: '^src/state/' }, to: { path: 'node_modules/lowdb/' } },
    { name: 'keychain-only-in-login', severity: 'error', comment: 'the keychain binding is loaded only by src/login/keychain.ts (dynamically, so other commands never pay for it)',
      from: { pathNot: '^src/login/' }, to: { path: 'node_modules/@napi-rs/keyring' } },
    { name: 'ws-only-in-upstream-and-server', severity: 'error', comment: 'WebSocket: the client side in upstream/, the server side (realtime proxy) in server/',
      from: { pathNot: '^src/(upstream|server)/' }, to: { path: 'node_modules/(@types/)?ws/' } },
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count too: a layer that needs another's types depends on it all the same.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
