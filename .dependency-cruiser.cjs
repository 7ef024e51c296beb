// The import rules (which way imports run) and the "nevers" of the architecture picture
// (docs/architecture.md), checked in the test run
// (test/e2e/architecture/import-rules.test.ts). What dependency-cruiser cannot see, property reads
// such as process.env and calls such as Date.now(), test/architecture/source-rules.test.ts greps for.
const pure = '^src/(formats|policy|dlp|routing|canonical|streaming)/|^src/audit/(chain|verify)\\.ts$|^src/errors\\.ts$';

// The parts of the architecture picture (the table and arrows of docs/architecture.md) and the folders each holds. Registry is the two files of src/formats/
// that are the door into the dialects; Formats is the rest of src/formats/.
const REGISTRY = '^src/formats/(codec-registry|patch-json-field)\\.ts$';
const parts = {
  Cli: { path: '^src/cli/' },
  Gateway: { path: '^src/(gateway|config)/' },
  Front: { path: '^src/(server|mcp)/' },
  Hub: { path: '^src/(hub|admin)/' },
  Laptop: { path: '^src/(login|sidecar)/' },
  Stores: { path: '^src/(postgres|redis)/' },
  Pipeline: { path: '^src/pipeline/' },
  Auth: { path: '^src/auth/' },
  Rules: { path: '^src/(policy|dlp|routing)/' },
  Spend: { path: '^src/spend/' },
  Registry: { path: REGISTRY },
  Providers: { path: '^src/(providers|upstream)/' },
  Audit: { path: '^src/audit/' },
  State: { path: '^src/state/' },
  Formats: { path: '^src/formats/', pathNot: REGISTRY },
  Base: { path: '^src/(canonical|streaming|metrics|telemetry)/|^src/(errors|logger|pretty-log|mask-url-credentials)\\.ts$' },
};

// Every "never" of the picture: an import (type-only and dynamic ones too) from the first part
// into the second fails the run.
const nevers = [
  ['Formats', 'Providers', 'codecs are pure: no I/O, no adapter'],
  ['Providers', 'Formats', 'a provider names a dialect, never imports one'],
  ['Base', 'Formats', 'the canonical model depends on nothing'],
  ['Pipeline', 'Front', 'the pipeline knows no framework'],
  ['Formats', 'Front', 'codecs know no framework'],
  ['Audit', 'Front', 'verify runs standalone'],
  ['Front', 'Formats', 'the server reaches dialects only via the registry'],
  ['State', 'Providers', 'state owns its shapes, imports no adapter'],
  ['Audit', 'State', 'the trail runs standalone: it owns its settings'],
  ['Base', 'Gateway', 'the logger knows no configuration folder'],
  ['Base', 'Audit', 'the ground floor knows no trail'],
  ['Laptop', 'Pipeline', 'the sidecar session knows no corridor'],
  ['Spend', 'Stores', 'the composition root picks the store'],
  ['Audit', 'Stores', 'the trail imports no store: the gateway hands the store\'s side in (audit/sink/store-sink-queue.ts)'],
  ['Rules', 'State', 'decisions take their records as arguments'],
];
const neverRules = nevers.map(([from, to, why]) => ({
  name: `never-${from.toLowerCase()}-to-${to.toLowerCase()}`, severity: 'error', comment: `${from} → ${to}: ${why}`,
  from: parts[from], to: parts[to],
}));

// The request path reads in order (issue 37): inside src/pipeline/ a layer imports only the layers
// before it in this list, never one after, so no arrow runs back up. The attempt (6) stands over the
// relay (7): a translated stream is relayed while the attempt runs (attempt/forward-translated.ts),
// and the relay reads what an attempt hands it from relay/target-reply.ts (docs/decisions.md).
const pipelineLayers = [
  ['shared', '(pipeline-types|route-table|gateway-services|request-trace|relayed-output|drain-cancel)\\.ts$'],
  ['door', 'door/'], ['decode', 'decode/'], ['govern', 'govern/'], ['plan', 'plan/'], ['relay', 'relay/'], ['attempt', 'attempt/'],
  ['request-state', 'request-state\\.ts$'], ['record', 'record/'], ['realtime', 'realtime/'], ['entry', 'handle-request\\.ts$'],
];
const pipelineOrderRules = pipelineLayers.slice(0, -1).map(([name, path], index) => ({
  name: `pipeline-in-order-${name}`, severity: 'error',
  comment: `the ${name} layer of src/pipeline/ imports no later layer of the request path (${pipelineLayers.slice(index + 1).map(([later]) => later).join(', ')})`,
  from: { path: `^src/pipeline/${path}` },
  to: { path: `^src/pipeline/(${pipelineLayers.slice(index + 1).map(([, later]) => later).join('|')})` },
}));

// A file of src/pipeline/ on no layer (a new folder, say) is named here, so the order covers it too.
pipelineOrderRules.push({
  name: 'pipeline-files-on-a-layer', severity: 'error', comment: 'every file of src/pipeline/ stands on a layer of pipelineLayers (add its folder there, in its place)',
  from: { path: '^src/pipeline/', pathNot: `^src/pipeline/(${pipelineLayers.map(([, path]) => path).join('|')})` }, to: { path: '^src/pipeline/' },
});

module.exports = {
  forbidden: [
    ...neverRules,
    ...pipelineOrderRules,
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
    { name: 'pg-only-in-postgres', severity: 'error', comment: 'the PostgreSQL client is loaded only by src/postgres/ (and only when --store names a database)', from: { pathNot: '^src/postgres/' }, to: { path: 'node_modules/pg/' } },
    { name: 'ioredis-only-in-redis', severity: 'error', comment: 'the Redis client is loaded only by src/redis/ (and only when --redis names a server)', from: { pathNot: '^src/redis/' }, to: { path: 'node_modules/ioredis/' } },
    { name: 'lowdb-only-in-state', severity: 'error', from: { pathNot: '^src/state/' }, to: { path: 'node_modules/lowdb/' } },
    { name: 'keychain-only-in-login', severity: 'error', comment: 'the keychain binding is loaded only by src/login/keychain.ts (dynamically, so other commands never pay for it)',
      from: { pathNot: '^src/login/' }, to: { path: 'node_modules/@napi-rs/keyring' } },
    { name: 'ws-only-in-upstream-and-server', severity: 'error', comment: 'WebSocket: the client side in upstream/, the server side (realtime proxy) in server/',
      from: { pathNot: '^src/(upstream|server)/' }, to: { path: 'node_modules/(@types/)?ws/' } },
    { name: 'genai-prices-only-in-spend', severity: 'error', comment: 'the price dataset is read only by src/spend/price-book.ts',
      from: { pathNot: '^src/spend/' }, to: { path: 'node_modules/@pydantic/genai-prices/' } },
    { name: 'google-auth-only-in-upstream', severity: 'error', comment: 'Google\'s auth library (Vertex AI access tokens) is loaded only by src/upstream/provider-tokens.ts (dynamically, on the first token)',
      from: { pathNot: '^src/upstream/' }, to: { path: 'node_modules/google-auth-library/' } },
    { name: 'opentelemetry-only-in-telemetry', severity: 'error', comment: 'the OpenTelemetry SDK is loaded only by src/telemetry/ (dynamically, and only when OTEL_EXPORTER_OTLP_* asks for it)',
      from: { pathNot: '^src/telemetry/' }, to: { path: 'node_modules/@opentelemetry/' } },
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
