// A local OpenAI-shaped provider that implements the resource routes for real: it
// stores the files it receives (streamed to disk, hashed on the way, never held),
// creates batches, responses, containers and videos, answers images and audio, and
// records every request it saw. Also serves /v1/realtime as an echoing WebSocket.
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import { WebSocketServer } from 'ws';

export interface SeenRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** JSON bodies parsed; multipart bodies as their fields (files as {filename, bytes, sha256}). */
  body: unknown;
}

export interface StoredFile { id: string; filename: string; purpose: string; bytes: number; sha256: string; diskPath: string }

export interface FakeResourceProvider {
  url: string;
  seen: SeenRequest[];
  files: Map<string, StoredFile>;
  /** Batches, responses, containers… by id: a test finishes a batch by changing its object here. */
  objects: Map<string, Json>;
  realtimeMessages: string[];
  close(): Promise<void>;
}

type Json = Record<string, unknown>;
type Handler = (request: http.IncomingMessage, match: RegExpMatchArray, body: unknown) => Promise<[number, unknown, string?]> | [number, unknown, string?];

export async function startFakeResourceProvider(apiKey: string): Promise<FakeResourceProvider> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'gw-fake-files-'));
  const seen: SeenRequest[] = [];
  const files = new Map<string, StoredFile>();
  const objects = new Map<string, Json>();
  const realtimeMessages: string[] = [];
  const newId = (prefix: string) => `${prefix}${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const save = (object: Json) => { objects.set(String(object.id), object); return object; };
  const found = (id: string | undefined): [number, unknown] => {
    const object = objects.get(id ?? '');
    return object ? [200, object] : [404, { error: { message: `No such object: ${id}`, type: 'invalid_request_error' } }];
  };

  const routes: Array<[string, RegExp, Handler]> = [
    ['POST', /^\/v1\/files$/, (_r, _m, body) => {
      const form = body as { fields: Json; file: { filename: string; bytes: number; sha256: string; diskPath: string } };
      const file: StoredFile = { id: newId('file-'), filename: form.file.filename, purpose: String(form.fields.purpose), bytes: form.file.bytes, sha256: form.file.sha256, diskPath: form.file.diskPath };
      files.set(file.id, file);
      return [200, fileObject(file)];
    }],
    ['GET', /^\/v1\/files$/, () => [200, { object: 'list', data: [...files.values()].map(fileObject), has_more: false }]],
    ['GET', /^\/v1\/files\/([^/]+)$/, (_r, m) => files.has(m[1]!) ? [200, fileObject(files.get(m[1]!)!)] : [404, { error: { message: 'No such file' } }]],
    ['DELETE', /^\/v1\/files\/([^/]+)$/, (_r, m) => [200, { id: m[1], object: 'file', deleted: files.delete(m[1]!) }]],
    ['POST', /^\/v1\/batches$/, (_r, _m, body) => [200, save({ id: newId('batch_'), object: 'batch', status: 'validating', ...(body as Json), output_file_id: null })]],
    ['GET', /^\/v1\/batches\/([^/]+)$/, (_r, m) => found(m[1])],
    ['POST', /^\/v1\/batches\/([^/]+)\/cancel$/, (_r, m) => {
      const batch = objects.get(m[1]!);
      if (batch) batch.status = 'cancelling';
      return found(m[1]);
    }],
    ['POST', /^\/v1\/responses$/, (_r, _m, body) => [200, save({ id: newId('resp_'), object: 'response', status: 'completed', model: (body as Json).model, output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'fake reply' }] }], usage: { input_tokens: 5, output_tokens: 2, total_tokens: 7 } })]],
    ['GET', /^\/v1\/responses\/([^/]+)\/input_items$/, (_r, m) => objects.has(m[1]!) ? [200, { object: 'list', data: [{ id: 'msg_1', type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }], has_more: false }] : found(m[1])],
    ['GET', /^\/v1\/responses\/([^/]+)$/, (_r, m) => found(m[1])],
    ['DELETE', /^\/v1\/responses\/([^/]+)$/, (_r, m) => [200, { id: m[1], object: 'response', deleted: objects.delete(m[1]!) }]],
    ['POST', /^\/v1\/responses\/([^/]+)\/cancel$/, (_r, m) => {
      const response = objects.get(m[1]!);
      if (response) response.status = 'cancelled';
      return found(m[1]);
    }],
    ['POST', /^\/v1\/responses\/input_tokens$/, () => [200, { object: 'response.input_tokens', input_tokens: 11 }]],
    ['POST', /^\/v1\/images\/generations$/, () => [200, { created: 1, data: [{ b64_json: Buffer.from('png').toString('base64') }] }]],
    ['POST', /^\/v1\/images\/edits$/, () => [200, { created: 2, data: [{ b64_json: Buffer.from('edited').toString('base64') }] }]],
    ['POST', /^\/v1\/audio\/transcriptions$/, (_r, _m, body) => [200, { text: `heard ${(body as { file: { bytes: number } }).file.bytes} bytes` }]],
    ['POST', /^\/v1\/containers$/, (_r, _m, body) => [200, save({ id: newId('cntr_'), object: 'container', name: (body as Json).name, status: 'running' })]],
    ['GET', /^\/v1\/containers\/([^/]+)$/, (_r, m) => found(m[1])],
    ['GET', /^\/v1\/containers\/([^/]+)\/files$/, (_r, m) => objects.has(m[1]!) ? [200, { object: 'list', data: [], has_more: false }] : found(m[1])],
    ['DELETE', /^\/v1\/containers\/([^/]+)$/, (_r, m) => [objects.delete(m[1]!) ? 200 : 404, { id: m[1], deleted: true }]],
    ['POST', /^\/v1\/videos$/, (_r, _m, body) => [200, save({ id: newId('video_'), object: 'video', status: 'queued', prompt: (body as { fields: Json }).fields.prompt, model: (body as { fields: Json }).fields.model })]],
    ['GET', /^\/v1\/videos\/([^/]+)$/, (_r, m) => found(m[1])],
    ['POST', /^\/v1\/videos\/([^/]+)\/remix$/, (_r, m, body) => objects.has(m[1]!) ? [200, save({ id: newId('video_'), object: 'video', status: 'queued', remixed_from_video_id: m[1], prompt: (body as Json).prompt })] : found(m[1])],
  ];

  const server = http.createServer((request, response) => {
    void serve(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: String(error) } }));
    });
  });

  async function serve(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://fake');
    const record: SeenRequest = { method: request.method ?? 'GET', path: url.pathname + url.search, headers: request.headers, body: null };
    seen.push(record);
    if (request.headers.authorization !== `Bearer ${apiKey}`) {
      request.resume();
      return send(response, 401, { error: { message: 'bad key', type: 'invalid_request_error' } });
    }
    record.body = await readBody(request, dir);
    if (request.method === 'GET' && /^\/v1\/files\/[^/]+\/content$/.test(url.pathname)) return sendFile(response, files.get(url.pathname.split('/')[3]!));
    if (request.method === 'POST' && url.pathname === '/v1/audio/speech') return sendAudio(response, record.body as Json);
    if (request.method === 'GET' && /^\/v1\/videos\/[^/]+\/content$/.test(url.pathname)) {
      response.writeHead(200, { 'content-type': 'video/mp4', 'content-length': '8' });
      return void response.end(Buffer.from('MP4VIDEO'));
    }
    for (const [method, pattern, handler] of routes) {
      const match = method === request.method ? url.pathname.match(pattern) : null;
      if (match) {
        const [status, body] = await handler(request, match, record.body);
        return send(response, status, body);
      }
    }
    send(response, 404, { error: { message: `fake: no route ${request.method} ${url.pathname}` } });
  }

  const sockets = new WebSocketServer({ noServer: true });
  server.on('upgrade', (request, socket, head) => {
    if (!request.url?.startsWith('/v1/realtime') || request.headers.authorization !== `Bearer ${apiKey}`) {
      socket.end('HTTP/1.1 401 Unauthorized\r\ncontent-type: application/json\r\ncontent-length: 25\r\n\r\n{"error":{"message":"no"}}');
      return;
    }
    seen.push({ method: 'GET', path: request.url, headers: request.headers, body: null });
    sockets.handleUpgrade(request, socket, head, (client) => {
      client.send(JSON.stringify({ type: 'session.created', session: { model: new URL(request.url!, 'http://x').searchParams.get('model') } }));
      client.on('message', (data) => {
        const text = String(data);
        realtimeMessages.push(text);
        const event = JSON.parse(text) as { type: string };
        client.send(JSON.stringify({ type: `${event.type}.ack` }));
        if (event.type === 'goodbye') client.close(4000, 'bye');
      });
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`, seen, files, objects, realtimeMessages,
    async close() {
      for (const client of sockets.clients) client.terminate();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function fileObject(file: StoredFile): Json {
  return { id: file.id, object: 'file', bytes: file.bytes, created_at: 1, filename: file.filename, purpose: file.purpose, status: 'processed' };
}

function send(response: http.ServerResponse, status: number, body: unknown): void {
  const bytes = Buffer.from(JSON.stringify(body));
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': String(bytes.length), 'x-request-id': 'fake-req' });
  response.end(bytes);
}

async function sendFile(response: http.ServerResponse, file: StoredFile | undefined): Promise<void> {
  if (!file) return send(response, 404, { error: { message: 'No such file' } });
  const { size } = await stat(file.diskPath);
  response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(size) });
  await pipeline(createReadStream(file.diskPath), response);
}

function sendAudio(response: http.ServerResponse, body: Json): void {
  const audio = Buffer.concat([Buffer.from('ID3'), Buffer.alloc(4096, 7), Buffer.from(String(body.input))]);
  response.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': String(audio.length) });
  response.end(audio);
}

/** JSON parsed; multipart streamed: fields kept, each file written to disk and hashed as it arrives. */
async function readBody(request: http.IncomingMessage, dir: string): Promise<unknown> {
  const type = request.headers['content-type'] ?? '';
  if (type.startsWith('multipart/form-data')) {
    const fields: Json = {};
    let file: Json | null = null;
    const writes: Array<Promise<void>> = [];
    const form = busboy({ headers: request.headers, limits: { fileSize: Infinity } });
    form.on('field', (name, value) => { fields[name] = value; });
    form.on('file', (name, stream, info) => {
      const diskPath = path.join(dir, randomUUID());
      const hash = createHash('sha256');
      let bytes = 0;
      stream.on('data', (chunk: Buffer) => { hash.update(chunk); bytes += chunk.length; });
      writes.push(pipeline(stream, createWriteStream(diskPath)).then(() => { file = { field: name, filename: info.filename, bytes, sha256: hash.digest('hex'), diskPath }; }));
    });
    await pipeline(request, form);
    await Promise.all(writes);
    return { fields, file };
  }
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (text === '') return null;
  return type.includes('json') ? JSON.parse(text) : text;
}
