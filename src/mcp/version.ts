// The version gw gives as MCP client and server (the gateway's own).
export { GATEWAY_VERSION as GW_VERSION } from '../pipeline/govern/upstream-headers.js';
