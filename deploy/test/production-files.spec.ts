import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = resolve(import.meta.dirname, '../..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const script = read('deploy/scripts/production.sh');
const kinds = ['command-api', 'query-api', 'projector', 'relay'] as const;
type Kind = (typeof kinds)[number];

/** Names set by `echo "NAME=..."` in a part of production.sh. */
const echoed = (text: string) => new Set([...text.matchAll(/echo "([A-Z_]+)=/g)].map((match) => match[1]!));
const between = (text: string, start: string, end: string) =>
  text.slice(text.indexOf(start), text.indexOf(end, text.indexOf(start)));
const shared = echoed(between(script, 'common_env() {', '\n}'));
const specs = between(script, 'service_spec() {', '\n}');
const own = (kind: Kind) => echoed(between(specs, `    ${kind === 'relay' ? 'relay)' : `${kind}-[0-9]*)`}`, ';;'));
const secrets = echoed(between(script, 'secrets="$dir/secrets.env"', '\nfi'));
/** The keys of an env file (NAME=value lines). */
const envKeys = (path: string) => new Set([...read(path).matchAll(/^([A-Z_]+)=/gm)].map((match) => match[1]!));

const compose = parse(read('deploy/docker/compose.yaml'), { merge: true }) as {
  services: Record<
    string,
    {
      environment?: Record<string, string>;
      env_file?: string;
      depends_on?: Record<string, unknown>;
      build?: { target?: string };
    }
  >;
};
const composed = (kind: Kind) =>
  Object.entries(compose.services).filter(([, service]) => service.build?.target === kind);

/**
 * The shape exists three times: production.sh (run by CI), the compose file and the systemd
 * units (not run here: no Docker, no systemd). These checks keep the other two in step with it.
 */
describe('the compose file and the systemd units, in step with production.sh', () => {
  it('run the same services, as many of each', () => {
    expect(shared.size).toBeGreaterThan(4);
    for (const kind of kinds) expect(own(kind).has('PORT')).toBe(true);
    expect(composed('command-api')).toHaveLength(2);
    expect(composed('query-api')).toHaveLength(2);
    expect(composed('projector')).toHaveLength(2);
    expect(composed('relay')).toHaveLength(1);
    expect(script).toMatch(/COMMAND_PORTS:-3101 3102/);
    expect(script).toMatch(/QUERY_PORTS:-3111 3112/);
    expect(script).toMatch(/PROJECTOR_PORTS:-3121 3122/);
    // Each from the bundle, through the same launcher.
    expect(script).toContain('node deploy/scripts/service.mjs "$program"');
    for (const kind of kinds) {
      expect(read(`deploy/systemd/course-portal-${kind}@.service`)).toContain(
        `ExecStart=/usr/bin/node deploy/scripts/service.mjs ${kind}/src/server.ts\n`,
      );
      expect(script).toContain(`echo "${kind}/src/server.ts"`);
      expect(read('deploy/docker/Dockerfile')).toContain(
        `CMD ["node", "deploy/scripts/service.mjs", "${kind}/src/server.ts"]`,
      );
    }
  });

  it('give every service the same environment, secrets included', () => {
    const dockerSecrets = envKeys('deploy/docker/portal.env.example');
    const systemdShared = envKeys('deploy/systemd/portal.env.example');
    expect([...secrets].sort()).toEqual(['ADMIN_PASSWORD', 'ADMIN_USERNAME', 'DATA_KEY', 'SESSION_SECRET']);
    for (const name of secrets) {
      expect(dockerSecrets.has(name), `${name} in deploy/docker/portal.env.example`).toBe(true);
      expect(systemdShared.has(name), `${name} in deploy/systemd/portal.env.example`).toBe(true);
    }
    for (const kind of kinds) {
      const wanted = [...shared, ...own(kind)];
      for (const [name, service] of composed(kind)) {
        const given = new Set([...Object.keys(service.environment ?? {}), ...dockerSecrets]);
        expect(service.env_file).toBe('portal.env');
        for (const variable of wanted)
          expect(given.has(variable), `${variable} for ${name} in compose.yaml`).toBe(true);
      }
      const unit = read(`deploy/systemd/course-portal-${kind}@.service`);
      const inUnit = new Set([
        ...systemdShared,
        ...[...unit.matchAll(/^Environment=([A-Z_]+)=/gm)].map((match) => match[1]!),
        ...(unit.includes('query-api.env') ? envKeys('deploy/systemd/query-api.env.example') : []),
      ]);
      for (const variable of wanted) expect(inUnit.has(variable), `${variable} for the ${kind} unit`).toBe(true);
    }
  });

  it('start in the same order: the database and the first command-api, then the rest, the replica before query-api, nginx last', () => {
    const up = between(script, 'up() {', '\n}');
    const at = (text: string) => up.indexOf(text);
    expect(at('start_replica')).toBeLessThan(at('start_service "${services[0]}"'));
    expect(at('wait_healthy "${services[0]}"')).toBeLessThan(at('for name in "${services[@]:1}"'));
    expect(at('start_nginx')).toBeGreaterThan(at('wait_healthy "$name"'));
    expect(script.indexOf('services+=("command-api-')).toBeLessThan(script.indexOf('services+=(relay)'));
    for (const [name, service] of Object.entries(compose.services)) {
      if (!service.build?.target || name === 'command-api-1') continue;
      expect(Object.keys(service.depends_on ?? {}), name).toContain('command-api-1');
    }
    for (const name of ['query-api-1', 'query-api-2'])
      expect(Object.keys(compose.services[name]!.depends_on!)).toContain('replica');
    expect(Object.keys(compose.services.nginx!.depends_on!).sort()).toEqual([
      'command-api-1',
      'command-api-2',
      'query-api-1',
      'query-api-2',
    ]);
    for (const kind of ['relay', 'projector', 'query-api']) {
      expect(read(`deploy/systemd/course-portal-${kind}@.service`)).toMatch(
        /^After=.*course-portal-command-api@3101\.service/m,
      );
    }
  });

  it('check health the same way: 200 from GET /api/health', () => {
    expect(between(script, 'wait_healthy() {', '\n}')).toContain('/api/health');
    expect(read('deploy/scripts/wait-healthy.sh')).toContain('/api/health');
    expect(read('deploy/docker/Dockerfile')).toMatch(/HEALTHCHECK[\s\S]*\/api\/health/);
    for (const kind of kinds) {
      expect(read(`deploy/systemd/course-portal-${kind}@.service`)).toContain(
        'ExecStartPost=/opt/course-portal/deploy/scripts/wait-healthy.sh %i',
      );
    }
  });

  it('route alike: nginx in the image renders the same file production.sh does', () => {
    expect(read('deploy/docker/nginx.Dockerfile')).toContain(
      'deploy/production/nginx.conf deploy/production/render-nginx.sh',
    );
    expect(script).toContain('deploy/production/render-nginx.sh');
  });
});
