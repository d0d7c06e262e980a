import { describe, expect, it } from 'vitest';
import { portFromEnv, serviceConfigFromEnv } from '../src/http/service-config.ts';

describe('the port a service listens on, from the environment', () => {
  it('takes the default when PORT is unset or blank, and a port number as given', () => {
    expect(portFromEnv({}, 'PORT', 3000)).toBe(3000);
    expect(portFromEnv({ PORT: '' }, 'PORT', 3000)).toBe(3000);
    expect(portFromEnv({ PORT: '  ' }, 'PORT', 3000)).toBe(3000);
    expect(portFromEnv({ PORT: ' 8080 ' }, 'PORT', 3000)).toBe(8080);
    expect(portFromEnv({ PORT: '65535' }, 'PORT', 3000)).toBe(65_535);
  });

  it('refuses anything else, naming the variable and what it held', () => {
    for (const text of ['0', '65536', 'abc', '80.5', '-1', '1e3', '0x50', '3000abc']) {
      expect(() => portFromEnv({ PORT: text }, 'PORT', 3000)).toThrow(
        `PORT must be a port number (1-65535), not "${text}".`,
      );
    }
  });

  it('names what else the caller takes', () => {
    expect(() => portFromEnv({ HTTPS_PORT: 'on' }, 'HTTPS_PORT', 3443, '"off"')).toThrow(
      'HTTPS_PORT must be a port number (1-65535) or "off", not "on".',
    );
  });

  it('is the port a service alone listens on', () => {
    const env = { SESSION_SECRET: 'x'.repeat(64), DATABASE_URL: 'postgres://db/portal' };
    expect(serviceConfigFromEnv(3001, env).port).toBe(3001);
    expect(serviceConfigFromEnv(3001, { ...env, PORT: '' }).port).toBe(3001);
    expect(() => serviceConfigFromEnv(3001, { ...env, PORT: 'http' })).toThrow('PORT must be a port number');
  });
});
