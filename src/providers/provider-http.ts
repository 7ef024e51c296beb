// URL and header building shared by the provider folders: no provider
// knowledge, so every adapter can use it without importing another adapter.
import type { UpstreamCall } from './provider-adapter.js';
import type { UpstreamOperation } from '../canonical/dialect.js';

/** `https://x/v1/` → `https://x/v1`: SDK variables are written both ways. */
export function trimBaseUrl(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '');
}

/** Appends query parameters to a URL that may already carry some. */
export function withQuery(url: string, query: URLSearchParams | undefined): string {
  const text = query?.toString() ?? '';
  if (text === '') return url;
  return `${url}${url.includes('?') ? '&' : '?'}${text}`;
}

/**
 * A passthrough call's client path is relative to the provider's API root, and
 * usually repeats the version the SDK base already ends with
 * (`/openai_passthrough/v1/files` with base `https://api.openai.com/v1`), so a
 * repeated version segment is not doubled, and a base path prefix (a corporate
 * proxy's `/openai`) is kept.
 */
export function joinPassthroughUrl(baseUrl: string, clientPath: string): string {
  const base = new URL(trimBaseUrl(baseUrl));
  const basePath = base.pathname.replace(/\/+$/, '');
  const path = clientPath.startsWith('/') ? clientPath : `/${clientPath}`;
  const version = /\/(v\d+(?:alpha|beta)?\d*)$/.exec(basePath)?.[1];
  const repeatsVersion = version !== undefined && (path === `/${version}` || /^\/[^/?]+/.exec(path)?.[0] === `/${version}`);
  const prefix = repeatsVersion ? basePath.slice(0, -(version.length + 1)) : basePath;
  return `${base.origin}${prefix}${path}`;
}

/** Bearer authentication as OpenAI and most compatible servers take it; none for keyless local servers. */
export function bearerAuth(apiKey: string | null): Record<string, string> {
  return apiKey === null ? {} : { authorization: `Bearer ${apiKey}` };
}

/** The key in a provider's own header (`x-api-key`, `api-key`…); none for keyless servers. */
export function keyHeader(header: string, apiKey: string | null): Record<string, string> {
  return apiKey === null ? {} : { [header]: apiKey };
}

/**
 * A resource call (files, batches, images…) goes to the client's own path under the
 * provider's API root, when the provider offers the operation; null otherwise.
 */
function resourceUrl(baseUrl: string, call: UpstreamCall, offered: ReadonlySet<UpstreamOperation>): string | null {
  if (!offered.has(call.operation) || call.resourcePath === undefined) return null;
  return withQuery(`${trimBaseUrl(baseUrl)}${call.resourcePath}`, call.query);
}

/** How a provider lays out its URLs under the base URL, as OpenAI's API does. */
export interface PathLayout {
  /** Each model operation's path (chat, embeddings, models…). */
  paths: Partial<Record<UpstreamOperation, string>>;
  /** The resource operations offered, each sent to the client's own path. */
  resources: ReadonlySet<UpstreamOperation>;
  /** Where resource paths start under the base URL: '' unless the base URL stops short of the version. */
  resourceRoot?: string;
}

/** A passthrough call's path, a resource call's own path, or the operation's path; null for what the provider does not offer. */
export function urlByPathLayout(baseUrl: string, call: UpstreamCall, layout: PathLayout): string | null {
  if (call.operation === 'passthrough') {
    return call.clientPath === undefined ? null : joinPassthroughUrl(baseUrl, call.clientPath);
  }
  if (call.resourcePath !== undefined) return resourceUrl(`${trimBaseUrl(baseUrl)}${layout.resourceRoot ?? ''}`, call, layout.resources);
  const path = layout.paths[call.operation];
  return path === undefined ? null : withQuery(`${trimBaseUrl(baseUrl)}${path}`, call.query);
}
