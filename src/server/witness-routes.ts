// The hub's audit-witness routes (src/hub/witness-checkpoints.ts): POST a signed
// checkpoint, GET what the hub holds of the caller's trails. Both pass the door like
// any governed call, so the sender is the door's identity (team, person, key id), never
// a name in the body; credential-less callers (default_team) are refused.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isSignedCheckpoint, readCheckpoint } from '../audit/checkpoint.js';
import type { WitnessSender } from '../audit/compare-witness.js';
import { GatewayError } from '../errors.js';
import type { HubWitness } from '../hub/witness-checkpoints.js';
import { readSentInstance } from '../audit/witness-log.js';
import type { HttpMethod, RouteEntry } from '../pipeline/route-table.js';
import { HUB_WITNESS_PATH } from '../sidecar/hub-witness.js';

function senderOf(request: FastifyRequest): WitnessSender {
  const identity = request.gw?.identity;
  if (!identity || identity.via === 'default-team') {
    throw new GatewayError('GW_ERR_AUTH_MISSING', { message: 'The audit witness needs your own credential (a gw login token or a key), not the default team.' });
  }
  // The device is the person's device login (token id), known from the credential; the instance is what the pusher says it is.
  return { team: identity.team, person: identity.person, key_id: identity.keyId, ...(identity.tokenId ? { device: identity.tokenId } : {}) };
}

function routeOf(method: HttpMethod, operation: string): RouteEntry {
  return { method, url: HUB_WITNESS_PATH, dialect: 'openai', operation, authenticated: true, jsonBody: true };
}

export function mountWitnessRoutes(app: FastifyInstance, witness: HubWitness): void {
  app.route({
    method: 'POST', url: HUB_WITNESS_PATH, config: { route: routeOf('POST', 'hub.witness.push') },
    handler: async (request, reply) => {
      const instance = readSentInstance(request.body);
      const from = { ...senderOf(request), ...(instance ? { instance } : {}) };
      let checkpoint;
      try {
        checkpoint = readCheckpoint(request.body);
      } catch (error) {
        throw new GatewayError('GW_ERR_REQUEST_INVALID', { message: `Send one signed audit checkpoint as JSON: ${(error as Error).message}.` });
      }
      if (!isSignedCheckpoint(checkpoint)) throw new GatewayError('GW_ERR_REQUEST_INVALID', { message: 'Only signed (v 2) checkpoints can be witnessed.' });
      const verdict = await witness.receive(checkpoint, from);
      if (!verdict.accepted) throw verdict.error;
      return reply.code(200).send({ accepted: true, duplicate: verdict.duplicate, trail: checkpoint.trail, seq: checkpoint.seq, ...(verdict.cosignature ? { cosignature: verdict.cosignature } : {}) });
    },
  });
  app.route({
    method: 'GET', url: HUB_WITNESS_PATH, config: { route: routeOf('GET', 'hub.witness.read') },
    handler: async (request, reply) => reply.code(200).send({ checkpoints: await witness.readFor(senderOf(request)) }),
  });
}
