// What gw does with each MCP method, per direction: the one list the relay registers its
// handlers from (mcp-gateway.ts) and the no-side-door matrix derives its rows from
// (test/e2e/corridor/mcp-no-side-door.test.ts), so a method relayed without its row, or one
// the SDK carries that this list does not place, fails that test. No SDK import here: the
// route reads it at the door before the SDK is loaded.

/** relayed: passes to (or from) an upstream server, through policy and DLP both ways.
 *  answered: gw answers it itself; nothing of it leaves gw.
 *  refused: answered "method not found"; nothing of it leaves gw.
 *  dropped: a notification gw takes and does not pass on (stateless: there is no session to pass it to). */
export type McpHandling = 'relayed' | 'answered' | 'refused' | 'dropped';

/** Messages an agent sends to gw's /mcp. */
export const AGENT_METHODS = {
  // 2025-11-25 and 2025-06-18 open with initialize; 2026-07-28 asks server/discover (the SDK answers
  // each in its own revision, and "method not found" in the other; 2026-07-28 has no ping).
  initialize: 'answered',
  'server/discover': 'answered',
  ping: 'answered',
  'tools/list': 'relayed',
  'tools/call': 'relayed',
  'resources/list': 'relayed',
  'resources/templates/list': 'relayed',
  'resources/read': 'relayed',
  'prompts/list': 'relayed',
  'prompts/get': 'relayed',
  'completion/complete': 'relayed',
  // A subscription needs a session to deliver its updates on; /mcp is stateless.
  'resources/subscribe': 'refused',
  'resources/unsubscribe': 'refused',
  // 2026-07-28's standing stream of notifications: the same, and it would hold a connection.
  'subscriptions/listen': 'refused',
  // gw writes its own log (and the audit); a server's log lines are not relayed.
  'logging/setLevel': 'refused',
  'tasks/get': 'refused',
  'tasks/result': 'refused',
  'tasks/list': 'refused',
  'tasks/cancel': 'refused',
  'notifications/initialized': 'dropped',
  // A call ends with its HTTP request (the client closing it aborts the upstream call).
  'notifications/cancelled': 'dropped',
  'notifications/progress': 'dropped',
  'notifications/roots/list_changed': 'dropped',
  'notifications/tasks/status': 'dropped',
} as const satisfies Record<string, McpHandling>;

/** Messages an upstream server sends to gw's client of it. gw's client declares no sampling, elicitation, roots or tasks. */
export const SERVER_METHODS = {
  // Under the agent's own progress token, during the call that asked for it.
  'notifications/progress': 'relayed',
  ping: 'answered',
  'sampling/createMessage': 'refused',
  'elicitation/create': 'refused',
  'roots/list': 'refused',
  'tasks/get': 'refused',
  'tasks/result': 'refused',
  'tasks/list': 'refused',
  'tasks/cancel': 'refused',
  'notifications/message': 'dropped',
  'notifications/cancelled': 'dropped',
  // The list_changed ones refresh what gw remembers of the server's listings; none reaches the agent.
  'notifications/resources/updated': 'dropped',
  'notifications/resources/list_changed': 'dropped',
  'notifications/tools/list_changed': 'dropped',
  'notifications/prompts/list_changed': 'dropped',
  'notifications/tasks/status': 'dropped',
  'notifications/elicitation/complete': 'dropped',
  'notifications/subscriptions/acknowledged': 'dropped',
} as const satisfies Record<string, McpHandling>;

type Relayed<T> = { [K in keyof T]: T[K] extends 'relayed' ? K : never }[keyof T];
/** The agent's requests gw relays: mcp-gateway.ts has a handler for each, by this type. */
export type RelayedRequest = Relayed<typeof AGENT_METHODS>;

const AGENT_HANDLING: Readonly<Record<string, McpHandling>> = AGENT_METHODS;

/** What gw does with an agent's method, or null for one the list does not know (the SDK answers it "method not found"). */
export function agentHandling(method: unknown): McpHandling | null {
  return typeof method === 'string' && Object.hasOwn(AGENT_HANDLING, method) ? AGENT_HANDLING[method] ?? null : null;
}

/** The method as the record may name it: a method the list knows, else "(other)" (a caller cannot mint record values). */
export function recordedMethod(method: unknown): string {
  return typeof method === 'string' && Object.hasOwn(AGENT_METHODS, method) ? method : '(other)';
}
