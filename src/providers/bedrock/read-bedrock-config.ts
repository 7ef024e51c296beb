// Bedrock configuration from the environment, as the AWS SDKs and Claude Code read it
// (pure: the caller passes process.env). Variables:
//   AWS_REGION, else AWS_DEFAULT_REGION (else us-east-1)      the runtime endpoint's region
//   AWS_BEARER_TOKEN_BEDROCK                                   a Bedrock API key: Authorization: Bearer
//   AWS_ACCESS_KEY_ID + AWS_SECRET_ACCESS_KEY [+ AWS_SESSION_TOKEN]   SigV4 credentials
//   BEDROCK_BASE_URL                                           another endpoint (a local stand-in, a VPC endpoint)
// An API key wins over access keys, as in the AWS SDKs
// (https://docs.aws.amazon.com/bedrock/latest/userguide/api-keys-use.html).
import type { AwsCredentials } from './sign-request.js';

export type BedrockAuth =
  | { type: 'bearer'; token: string; from: string }
  | { type: 'sigv4'; credentials: AwsCredentials; from: string }
  | { type: 'none' };

export interface BedrockConfig {
  region: string;
  regionFrom: string;
  baseUrl: string;
  baseUrlFrom: string;
  auth: BedrockAuth;
}

const DEFAULT_BEDROCK_REGION = 'us-east-1';

function bedrockRuntimeUrl(region: string): string {
  return `https://bedrock-runtime.${region}.amazonaws.com`;
}

/** Null when nothing configures Bedrock (no credentials and no base URL). */
export function readBedrockConfig(env: Record<string, string | undefined>): BedrockConfig | null {
  const value = (name: string): string | undefined => {
    const text = env[name]?.trim();
    return text === undefined || text === '' ? undefined : text;
  };
  const auth = readAuth(value);
  const baseUrl = value('BEDROCK_BASE_URL');
  if (auth.type === 'none' && baseUrl === undefined) return null;
  const regionFrom = value('AWS_REGION') !== undefined ? 'AWS_REGION' : value('AWS_DEFAULT_REGION') !== undefined ? 'AWS_DEFAULT_REGION' : 'default';
  const region = value('AWS_REGION') ?? value('AWS_DEFAULT_REGION') ?? DEFAULT_BEDROCK_REGION;
  return {
    region,
    regionFrom,
    baseUrl: baseUrl ?? bedrockRuntimeUrl(region),
    baseUrlFrom: baseUrl === undefined ? 'default' : 'BEDROCK_BASE_URL',
    auth,
  };
}

function readAuth(value: (name: string) => string | undefined): BedrockAuth {
  const token = value('AWS_BEARER_TOKEN_BEDROCK');
  if (token !== undefined) return { type: 'bearer', token, from: 'env:AWS_BEARER_TOKEN_BEDROCK' };
  const accessKeyId = value('AWS_ACCESS_KEY_ID');
  const secretAccessKey = value('AWS_SECRET_ACCESS_KEY');
  if (accessKeyId === undefined || secretAccessKey === undefined) return { type: 'none' };
  const sessionToken = value('AWS_SESSION_TOKEN');
  const credentials: AwsCredentials = sessionToken === undefined ? { accessKeyId, secretAccessKey } : { accessKeyId, secretAccessKey, sessionToken };
  return { type: 'sigv4', credentials, from: 'env:AWS_ACCESS_KEY_ID' };
}

/** The region in a bedrock-runtime host (`bedrock-runtime.eu-west-1.amazonaws.com`), for signing calls to a configured URL. */
export function regionFromBaseUrl(baseUrl: string): string | undefined {
  try {
    return /^bedrock-runtime(?:-fips)?\.([a-z0-9-]+)\.amazonaws\.com/.exec(new URL(baseUrl).hostname)?.[1];
  } catch {
    return undefined;
  }
}
