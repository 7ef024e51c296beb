// The import rules of ../shared/CONVENTIONS.md ("Which way imports run"), checked in the test run.
const pure = '^src/(formats|policy|dlp|routing|canonical|streaming)/|^src/audit/(chain|verify)\\.ts$|^src/errors\\.ts$';
module.exports = {
  forbidden: [
    { name: 'leaf-modules-import-nothing', severity: 'error', comment: 'canonical/, errors.ts and streaming/ import nothing else from src/',
      from: { path: '^src/(canonical|streaming)/|^src/errors\\.ts$' }, to: { path: '^src/', pathNot: '^src/(canonical|streaming)/' } },
    { name: 'pure-code-has-no-io', severity: 'error', comment: 'pure modules use no fs, network, fastify, undici, pino, prom-client',
      from: { path: pure }, to: { path: '^(node:)?(fs|fs/promises|net|http|https|child_process)$|node_modules/(fastify|undici|pino|prom-client|lowdb|commander)/', dependencyTypes: ['core', 'npm'] } },
    { name: 'formats-stay-apart', severity: 'error', comment: 'a format never imports another format (src/formats/shared/ holds the few helpers they share)',
      from: { path: '^src/formats/([^/]+)/' }, to: { path: '^src/formats/([^/]+)/', pathNot: '^src/formats/($1|shared)/' } },
    { name: 'formats-behind-the-registry', severity: 'error',
      comment: 'outside src/formats/, a codec is reached through codec-registry.ts (its DialectCodec methods), never a file of a format folder; shared/ and patch-json-field.ts are the other doors',
      from: {
        pathNot: [
          '^src/formats/',
          // TEMPORARY, for the lead to remove when he switches them to the codec API:
          // scan-output.ts → codec.encodeStreamError(error); realtime-proxy.ts → codecForFamily(family).encodeError(error).
          '^src/pipeline/scan-output\\.ts$',
          '^src/server/realtime-proxy\\.ts$',
        ],
      },
      to: { path: '^src/formats/', pathNot: '^src/formats/(codec-registry\\.ts|patch-json-field\\.ts|shared/)' } },
    { name: 'providers-stay-apart', severity: 'error', comment: 'a provider never imports another provider; only registry.ts imports them all',
      from: { path: '^src/providers/([^/]+)/' }, to: { path: '^src/providers/([^/]+)/', pathNot: '^src/providers/$1/' } },
    { name: 'nothing-imports-cli-or-server', severity: 'error', from: { pathNot: '^src/(cli|server)/' }, to: { path: '^src/(cli|server)/' } },
    { name: 'server-is-not-imported-by-cli-except-dynamically', severity: 'ignore', from: { path: '^src/cli/' }, to: { path: '^src/server/' } },
    { name: 'one-owner-per-library', severity: 'error', comment: 'fastify → server, undici → upstream, commander → cli, pino → logger, prom-client → metrics, lowdb → state',
      from: { pathNot: '^src/server/' }, to: { path: 'node_modules/(fastify|@fastify)/' } },
    { name: 'undici-only-in-upstream', severity: 'error', from: { pathNot: '^src/upstream/' }, to: { path: 'node_modules/undici/' } },
    { name: 'commander-only-in-cli', severity: 'error', from: { pathNot: '^src/cli/' }, to: { path: 'node_modules/commander/' } },
    { name: 'pino-only-in-logger', severity: 'error', from: { pathNot: '^src/logger\\.ts$' }, to: { path: 'node_modules/pino/' } },
    { name: 'prom-client-only-in-metrics', severity: 'error', from: { pathNot: '^src/metrics/' }, to: { path: 'node_modules/prom-client/' } },
    { name: 'lowdb-only-in-state', severity: 'error', from: { pathNot: '^src/state/' }, to: { path: 'node_modules/lowdb/' } },
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Runtime imports only: a type-only import cycle costs nothing at run time.
    tsPreCompilationDeps: false,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
