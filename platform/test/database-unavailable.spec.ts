import { afterAll, describe, expect, it } from 'vitest';
import { createHttpServer } from '../src/http/server-kit.ts';
import { connectPostgres } from '../src/store/postgres.ts';
import { isDatabaseUnavailable } from '../src/store/sql.ts';

/**
 * A database that cannot be reached (restarting, failing over) is not a fault of the request:
 * the answer is 503 with Retry-After, in the caller's language, so nginx sends a GET to another
 * instance and the console sends the call again. Against a real refused connection.
 */
describe('a database that cannot be reached', () => {
  const db = connectPostgres({ connectionString: 'postgres://postgres@127.0.0.1:1/none' });
  afterAll(() => db.close());

  it('answers 503 with Retry-After and the message in the caller’s language, not 500', async () => {
    const app = await createHttpServer({ title: 'test', sessionSecret: 'a-session-secret-of-enough-length-here' });
    app.get('/api/thing', async () => db.query('SELECT 1'));
    for (const [language, message] of [
      ['th', 'ระบบไม่พร้อมให้บริการชั่วคราว กรุณาลองใหม่ในอีกสักครู่'],
      ['en', 'The service is unavailable for a moment. Please try again shortly.'],
    ]) {
      const answer = await app.inject({ method: 'GET', url: '/api/thing', headers: { 'accept-language': language! } });
      expect(answer.statusCode).toBe(503);
      expect(answer.headers['retry-after']).toBe('1');
      expect(answer.json()).toEqual({ success: false, message });
    }
    await app.close();
  });

  it('tells a lost or refused connection from a wrong statement', async () => {
    const refused = await db.query('SELECT 1').catch((error: unknown) => error);
    expect(isDatabaseUnavailable(refused)).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('terminating connection'), { code: '57P01' }))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('syntax error'), { code: '42601' }))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
  });
});
