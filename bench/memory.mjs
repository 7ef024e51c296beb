// `npm run bench` (after run.mjs), or `node bench/memory.mjs [MiB]`: a large file
// upload (multipart, POST /v1/files) and download (GET /v1/files/{id}/content) through
// `gw serve`, with gw's peak RSS (VmHWM from /proc/<pid>/status) before and after.
// gw streams both ways, so its peak stays near its idle size whatever the file size.
// Reports; asserts nothing (test/e2e/resources/memory.test.ts bounds a smaller run).
// Env: BENCH_MEMORY_MIB (1024), GW_BENCH_ENTRY (gw's bin script).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const CHUNK = Buffer.alloc(1024 * 1024, 0x61);
const UPSTREAM_KEY = 'sk-bench-memory-upstream';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function readPeakMemory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { peakRssBytes: field('VmHWM'), rssBytes: field('VmRSS') };
}

/** A provider that counts uploads and serves a download of the same size, holding neither. */
function startUpstream(bytes) {
  const server = http.createServer((request, response) => {
    if (request.headers.authorization !== `Bearer ${UPSTREAM_KEY}`) return void response.writeHead(401).end();
    if (request.method === 'POST') {
      let received = 0;
      request.on('data', (chunk) => { received += chunk.length; });
      request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'file-memory', object: 'file', received })));
      return;
    }
    response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(bytes) });
    void writeBytes(response, bytes).then(() => response.end());
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function writeBytes(stream, bytes) {
  for (let sent = 0; sent < bytes; sent += CHUNK.length) {
    const part = bytes - sent >= CHUNK.length ? CHUNK : CHUNK.subarray(0, bytes - sent);
    if (!stream.write(part)) await new Promise((resolve) => stream.once('drain', resolve));
  }
}

function startGw(upstreamUrl, home) {
  const entry = process.env.GW_BENCH_ENTRY ? path.resolve(process.env.GW_BENCH_ENTRY) : path.join(root, 'bin', 'gw.js');
  const child = spawn(process.execPath, [entry, 'serve', '--port', '0', '--home', home], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, OPENAI_API_KEY: UPSTREAM_KEY, OPENAI_BASE_URL: `${upstreamUrl}/v1`, GW_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`gw serve exited (${code}): ${output}`)));
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const url = /listening on (http\S+)/.exec(output)?.[1];
      const key = /^\s+(sk-gw-[0-9A-Za-z]+)\s*$/m.exec(output)?.[1];
      if (url && key) resolve({ child, url, key });
    });
  });
}

function upload(gw, bytes) {
  const boundary = 'gwbenchboundary';
  const head = Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="purpose"\r\n\r\nbatch\r\n--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="big.jsonl"\r\ncontent-type: application/octet-stream\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const request = http.request(`${gw.url}/v1/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.key}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(head.length + bytes + tail.length) },
    }, (response) => {
      let text = '';
      response.on('data', (chunk) => { text += chunk; });
      response.on('end', () => (response.statusCode === 200 ? resolve(JSON.parse(text)) : reject(new Error(`upload: ${response.statusCode} ${text}`))));
    });
    request.on('error', reject);
    request.write(head);
    void writeBytes(request, bytes).then(() => request.end(tail));
  });
}

function download(gw) {
  return new Promise((resolve, reject) => {
    http.get(`${gw.url}/v1/files/file-memory/content`, { headers: { authorization: `Bearer ${gw.key}` } }, (response) => {
      let received = 0;
      response.on('data', (chunk) => { received += chunk.length; });
      response.on('end', () => (response.statusCode === 200 ? resolve(received) : reject(new Error(`download: ${response.statusCode}`))));
    }).on('error', reject);
  });
}

/** Runs one upload and one download of `bytes` through a fresh gw; returns sizes, times and gw's memory. */
export async function measureTransferMemory(bytes) {
  const home = mkdtempSync(path.join(os.tmpdir(), 'gw-bench-memory-'));
  const upstream = await startUpstream(bytes);
  const gw = await startGw(`http://127.0.0.1:${upstream.address().port}`, home);
  try {
    const idle = readPeakMemory(gw.child.pid);
    let started = performance.now();
    const uploaded = await upload(gw, bytes);
    const uploadSeconds = (performance.now() - started) / 1000;
    started = performance.now();
    const downloaded = await download(gw);
    const downloadSeconds = (performance.now() - started) / 1000;
    const after = readPeakMemory(gw.child.pid);
    return { bytes, uploadedBytesAtProvider: uploaded.received, downloadedBytes: downloaded, uploadSeconds, downloadSeconds, idlePeakRssBytes: idle.peakRssBytes, peakRssBytes: after.peakRssBytes };
  } finally {
    gw.child.removeAllListeners('exit');
    gw.child.kill('SIGTERM');
    await new Promise((resolve) => gw.child.once('close', resolve));
    upstream.closeAllConnections();
    upstream.close();
    rmSync(home, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const mib = Number(process.argv[2] ?? process.env.BENCH_MEMORY_MIB ?? 1024);
  const result = await measureTransferMemory(mib * 1024 * 1024);
  const toMiB = (value) => (value / 1024 / 1024).toFixed(1);
  process.stdout.write(`\nmemory: ${mib} MiB upload + download through gw on Node ${process.version}\n` +
    `  upload   ${result.uploadSeconds.toFixed(1)} s (provider received ${toMiB(result.uploadedBytesAtProvider)} MiB)\n` +
    `  download ${result.downloadSeconds.toFixed(1)} s (${toMiB(result.downloadedBytes)} MiB)\n` +
    `  gw peak RSS (VmHWM): ${toMiB(result.idlePeakRssBytes)} MiB idle → ${toMiB(result.peakRssBytes)} MiB after both\n`);
}
