// What someone with the laptop's files can do to its trail: keep the first records, drop
// the rest, append made-up ones, and seal it all again under a key pair of their own,
// with a checkpoint that matches. A thorough one also puts the new key in the home's trust
// file (audit-trust.json): then the result verifies locally and only a witness can tell;
// one who does not is refused by verify alone (the key is not trusted).
import { generateKeyPairSync } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sealRecord, type UnsealedRecord } from '../../../src/audit/chain.js';
import { signCheckpointWithKey, trailIdOf } from '../../../src/audit/checkpoint.js';

export async function rechainUnderNewKey(home: string, keep: number, options: { rewriteTrust?: boolean } = {}): Promise<{ seq: number; publicKey: string }> {
  const logFile = path.join(home, 'audit', 'audit.jsonl');
  const kept = (await readFile(logFile, 'utf8')).split('\n').filter(Boolean).slice(0, keep);
  const records = kept.map((line) => JSON.parse(line) as UnsealedRecord & { hash: string });
  const last = records.at(-1)!;
  const forged = sealRecord({ v: 1, seq: last.seq + 1, ts: new Date().toISOString(), prev: last.hash, kind: 'gateway.stop', data: { pid: 1 } });
  await writeFile(logFile, `${[...kept, forged.line].join('\n')}\n`);
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'jwk' }).x!;
  await writeFile(path.join(home, 'audit-signing.key'), privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
  await writeFile(path.join(home, 'audit.pub'), `${raw}\n`);
  const head = { seq: forged.record.seq, hash: forged.record.hash };
  const checkpoint = signCheckpointWithKey(privateKey, raw, trailIdOf(records[0]!.hash), head);
  await writeFile(path.join(home, 'audit', 'checkpoint.json'), `${JSON.stringify(checkpoint)}\n`);
  if (options.rewriteTrust !== false) {
    const trust = { v: 1, keys: [{ public_key: raw, name: 'this home', added_at: new Date().toISOString(), note: 'forged' }] };
    await writeFile(path.join(home, 'audit-trust.json'), `${JSON.stringify(trust)}\n`);
  }
  return { seq: head.seq, publicKey: raw };
}
