// What gw adds to fastify's types: the request's state (pipeline/request-state.ts), hung on the
// request by the door hook, and the route-table entry each route is mounted with.
import type { RequestState } from '../pipeline/request-state.js';
import type { RouteEntry } from '../pipeline/route-table.js';

declare module 'fastify' {
  interface FastifyRequest {
    gw: RequestState;
  }
  interface FastifyContextConfig {
    route?: RouteEntry;
  }
}
