// `gw login --admin --hub URL`: keeps an admin token for remote administration. The token
// comes from GW_ADMIN_TOKEN or standard input (never an argument: it would land in the shell
// history and the process list); it is checked against the hub before it is stored.
import { adminCredentials, callHub } from './admin-client.js';
import { CliExit, type CliContext } from './cli-context.js';
import { shellCommand } from '../shell-quote.js';

async function readToken(context: CliContext): Promise<string> {
  const fromEnv = context.env.GW_ADMIN_TOKEN?.trim();
  if (fromEnv) return fromEnv;
  if (process.stdin.isTTY) context.stderr.write('paste the admin token (gwa-…), then Enter: ');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) {
    chunks.push(chunk as Buffer);
    if (Buffer.concat(chunks).includes(10)) break;
  }
  return Buffer.concat(chunks).toString('utf8').trim();
}

export async function runAdminLogin(hub: string, home: string | undefined, context: CliContext): Promise<void> {
  const token = await readToken(context);
  if (!/^gwa-[0-9A-Za-z]{43}$/.test(token)) throw new CliExit(2, 'that is not an admin token (gwa-…): make one on the hub with gw admin tokens create --name YOU');
  const admin = await callHub<{ id: string; name: string }>({ url: hub, token }, 'GET', '/admin/api/whoami');
  const saved = await adminCredentials(context, home).save({ hub, id: admin.id, name: admin.name, token });
  if (saved.notice) context.stderr.write(`${saved.notice}\n`);
  context.stderr.write(`Logged in to ${hub} as admin ${admin.name} (${admin.id}); the token is in ${saved.where}. Commands with ${shellCommand(['--hub', hub])} use it.\n`);
}
