// Test secrets, assembled at run time so this file itself never looks like a leak
// to a secret scanner (GitHub push protection, gitleaks): none of them is live.
const repeat = (text: string, length: number) => text.repeat(Math.ceil(length / text.length)).slice(0, length);
const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

export const SAMPLES = {
  awsKeyId: ['AK', 'IA', 'QYLPMN5HHHFPZAM2'].join(''),
  awsSecret: ['wJalrXUtnFEMI', '/K7MDENG/bPxRfiCY', 'EXAMPLEKEY'].join(''),
  githubPat: `gh${'p'}_${repeat('aB3dE5fG7h', 36)}`,
  githubOauth: `gh${'o'}_${repeat('Zx9Yw8Vu7t', 36)}`,
  githubServer: `gh${'s'}_${repeat('Qa1Ws2Ed3r', 36)}`,
  githubFineGrained: `github${'_pat_'}${repeat('11ABCDEFG0_abcdefghijklmnop', 82)}`,
  openaiProject: `sk-${'proj'}-${repeat('Ab1Cd2Ef3Gh4_Ij5-Kl6', 120)}`,
  openaiLegacy: `sk-${repeat('Xy7Zw6Vu5T', 20)}${'T3Blbk'}FJ${repeat('Rq4Sp3On2M', 20)}`,
  anthropic: `sk-${'ant'}-api03-${repeat('Ab1_Cd2-Ef3Gh4Ij5Kl6', 93)}AA`,
  google: `AI${'za'}Sy${repeat('D3f4G5h6J7k8L9m0N1p2Q', 33)}`,
  slack: `xo${'xb'}-123456789012-1234567890123-${repeat('AbCdEfGh12', 24)}`,
  stripeLive: `sk${'_live_'}${repeat('4eC39HqLyjWDarjtT1zdp7dc', 24)}`,
  stripeRestricted: `rk${'_live_'}${repeat('51H8Qx2Kd9Lm4Np7Rs0Tv3', 24)}`,
  privateKey: `-----BEGIN RSA ${'PRIVATE'} KEY-----\nMIIEowIBAAKCAQEA${repeat('q1w2e3r4t5y6', 60)}\n${repeat('Zx8Cv7Bn6M', 64)}\n-----END RSA ${'PRIVATE'} KEY-----`,
  jwt: `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url({ sub: '1234567890', name: 'A Person', iat: 1516239022 })}.${repeat('SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c', 43)}`,
  gwKey: `sk-${'gw'}-${repeat('4xT9kLm2Qp7Rs1Vw3Yz5Ab8Cd0Ef6Gh', 49)}`,
  email: 'jane.doe+work@example-mail.co.uk',
  visa: '4111 1111 1111 1111',
  visaPlain: '4539578763621486',
  mastercard: '5555-5555-5555-4444',
  ibanDe: 'DE89 3704 0044 0532 0130 00',
  ibanGbCompact: 'GB29NWBK60161331926819',
  ssn: '536-22-8041',
  phone: '+44 20 7946 0958',
  phoneUs: '+1-415-555-0132',
} as const;
