// GET /managed/settings (Anthropic's gateway protocol, src/hub/managed-settings.ts): the
// caller's Claude Code managed settings. It passes the door like any governed call, so
// whose settings are served is the door's identity (a signed-in person, or a team key),
// never something the request says. ETag is the settings' checksum; a matching
// If-None-Match gets 304. Each delivery is recorded (settings.delivered).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GatewayError } from '../errors.js';
import type { HubContext } from '../hub/hub-context.js';
import { managedSettingsFor } from '../hub/managed-settings.js';
import type { RouteEntry } from '../pipeline/route-table.js';

const MANAGED_SETTINGS_PATH = '/managed/settings';

const ROUTE: RouteEntry = { method: 'GET', url: MANAGED_SETTINGS_PATH, dialect: 'anthropic', operation: 'hub.managed_settings', authenticated: true, jsonBody: false };

function teamOf(request: FastifyRequest): { team: string; person: string | null; keyId: string | null } {
  const identity = request.gw?.identity;
  if (!identity || identity.via === 'default-team') {
    throw new GatewayError('GW_ERR_AUTH_MISSING', { message: 'Managed settings need your own credential (Claude Code\'s /login to this hub, or a key), not the default team.' });
  }
  return { team: identity.team, person: identity.person, keyId: identity.keyId };
}

export function mountManagedSettingsRoute(app: FastifyInstance, hub: HubContext, baseUrlOf: (request: FastifyRequest) => string): void {
  app.route({
    method: 'GET', url: MANAGED_SETTINGS_PATH, config: { route: ROUTE },
    handler: async (request, reply) => {
      const caller = teamOf(request);
      const served = managedSettingsFor(hub.store.snapshot(), caller.team, baseUrlOf(request));
      if (served === null) throw new GatewayError('GW_ERR_CLAUDE_SETTINGS_NONE');
      const etag = `"${served.checksum}"`;
      const headers = { etag, 'cache-control': 'no-cache' };
      if (request.headers['if-none-match'] === etag) return reply.code(304).headers(headers).send();
      hub.audit({
        kind: 'settings.delivered', team: caller.team, origin: request.ip,
        ...(caller.person === null ? {} : { person: caller.person }), ...(caller.keyId === null ? {} : { key_id: caller.keyId }),
        data: { scope: served.scope, checksum: served.checksum },
      });
      return reply.code(200).headers(headers).send({ uuid: served.uuid, checksum: served.checksum, settings: served.settings });
    },
  });
}
