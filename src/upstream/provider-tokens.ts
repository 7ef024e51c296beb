// Short-lived access tokens for providers that take no static key (Vertex AI). Google's own
// library does the exchange: a service-account key (a signed JWT grant), workload credentials
// (external_account: the STS exchange at the file's token_url) or Application Default Credentials,
// and it caches each token and refreshes it before it expires
// (https://cloud.google.com/docs/authentication/application-default-credentials). One client per
// credentials file, made on first use; a failure is a catalog error that names no secret. The
// library is loaded on the first token, so a gw without Vertex never pays for it.
import type { GoogleAuth } from 'google-auth-library';
import { GatewayError } from '../errors.js';

// https://cloud.google.com/vertex-ai/docs/authentication: Vertex takes the cloud-platform scope.
const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';

/** Where a provider's token comes from; null credentialsFile means Application Default Credentials. */
export interface TokenSource {
  provider: string;
  google: { credentialsFile: string | null };
}

export interface ProviderTokens {
  /** The bearer token for the provider now: cached by the library, minted again shortly before it expires. */
  tokenFor(source: TokenSource): Promise<string>;
}

export function createProviderTokens(): ProviderTokens {
  const clients = new Map<string, GoogleAuth>();
  const authFor = async (file: string | null): Promise<GoogleAuth> => {
    const key = file ?? '';
    let auth = clients.get(key);
    if (auth === undefined) {
      const library = await import('google-auth-library');
      // Two first calls may both get here: the later client is dropped, the library caches per client.
      auth = clients.get(key) ?? new library.GoogleAuth({ scopes: [CLOUD_PLATFORM_SCOPE], ...(file === null ? {} : { keyFilename: file }) });
      clients.set(key, auth);
    }
    return auth;
  };
  return {
    async tokenFor(source) {
      let token: string | null | undefined;
      try {
        token = await (await authFor(source.google.credentialsFile)).getAccessToken();
      } catch (error) {
        throw tokenError(source.provider, describeFailure(error));
      }
      if (!token) throw tokenError(source.provider, 'the token endpoint answered without an access token');
      return token;
    },
  };
}

function tokenError(provider: string, reason: string): GatewayError {
  return new GatewayError('GW_ERR_PROVIDER_TOKEN_UNAVAILABLE', {
    message: `Provider ${provider} has no Google access token: ${reason}. Check its credentials (GOOGLE_APPLICATION_CREDENTIALS) and that the token endpoint is reachable.`,
  });
}

// The library's message names the file, the token endpoint's error and description; a signed
// assertion or a token is cut out in case one ever appears in it.
function describeFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const firstLine = message.split('\n')[0] ?? '';
  return firstLine.replace(/eyJ[\w-]+(\.[\w-]*)*/g, '[redacted]').replace(/ya29\.[\w-]+/g, '[redacted]').slice(0, 300);
}
