// Claims on the PostgreSQL resource-id table (a real server): two instances polling the same
// finished batch at once record its usage exactly once between them.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../src/postgres/database.js';
import { migrate } from '../../../src/postgres/migrations.js';
import { openPostgresResourceIds } from '../../../src/postgres/postgres-resource-ids.js';
import { startPostgres, type PostgresServer } from '../../support/database-servers.js';

let postgres: PostgresServer;
let database: Database;

beforeAll(async () => {
  postgres = await startPostgres();
  database = openDatabase(await postgres.createDatabase());
  await migrate(database);
}, 60_000);

afterAll(async () => {
  await database?.end();
  await postgres?.destroy();
});

it('of two instances claiming the same keys at once, exactly one wins each; a later claim loses', async () => {
  const errors: unknown[] = [];
  const [one, two] = await Promise.all([openPostgresResourceIds(database, (error) => errors.push(error)), openPostgresResourceIds(database, (error) => errors.push(error))]);
  const keys = Array.from({ length: 20 }, (_, index) => `usage:batch_${index}`);
  const won = await Promise.all(keys.flatMap((key) => [one.claim(key, 'openai'), two.claim(key, 'openai')]));
  for (let index = 0; index < keys.length; index += 1) expect(Number(won[2 * index]) + Number(won[2 * index + 1])).toBe(1);
  const three = await openPostgresResourceIds(database, (error) => errors.push(error));
  expect(await three.claim('usage:batch_7', 'openai')).toBe(false);
  expect(errors).toEqual([]);
});
