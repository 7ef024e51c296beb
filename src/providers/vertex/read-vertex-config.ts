// Vertex AI configuration from the environment, with the variables Google's SDKs and Claude Code
// read (pure: the caller passes process.env):
//   GOOGLE_CLOUD_PROJECT, else ANTHROPIC_VERTEX_PROJECT_ID    the project in every path (required)
//   GOOGLE_CLOUD_LOCATION, else CLOUD_ML_REGION (else global)  the region, or `global`
//   GOOGLE_APPLICATION_CREDENTIALS                             a service-account key or workload
//                                                              credentials file (else Application Default Credentials)
//   GOOGLE_VERTEX_BASE_URL                                     another endpoint (a local stand-in, Private Service Connect)
// https://cloud.google.com/docs/authentication/application-default-credentials
import { vertexBaseUrl } from './adapter.js';

export interface VertexConfig {
  project: string;
  location: string;
  credentialsFile: string | null;
  baseUrl: string;
  baseUrlFrom: string;
}

type Environment = Record<string, string | undefined>;

const LOCATION = /^[a-z][a-z0-9-]*$/;

function read(env: Environment, names: string[]): { value: string; from: string } | null {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return { value, from: name };
  }
  return null;
}

/** Null when no project is set; a string says why the variables cannot configure Vertex. */
export function readVertexConfig(env: Environment): VertexConfig | string | null {
  const project = read(env, ['GOOGLE_CLOUD_PROJECT', 'ANTHROPIC_VERTEX_PROJECT_ID']);
  if (project === null) return null;
  const location = read(env, ['GOOGLE_CLOUD_LOCATION', 'CLOUD_ML_REGION'])?.value ?? 'global';
  if (!LOCATION.test(location)) return 'GOOGLE_CLOUD_LOCATION is not a location (a region such as us-east5, or global)';
  const base = read(env, ['GOOGLE_VERTEX_BASE_URL']);
  return {
    project: project.value, location, credentialsFile: read(env, ['GOOGLE_APPLICATION_CREDENTIALS'])?.value ?? null,
    baseUrl: base?.value.replace(/\/+$/, '') ?? vertexBaseUrl(location), baseUrlFrom: base === null ? 'default' : 'GOOGLE_VERTEX_BASE_URL',
  };
}
