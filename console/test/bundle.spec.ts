import { builtinModules } from 'node:module';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Plugin, build } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The console's bundle as a browser downloads it holds no server code: the linter keeps server
 * imports out of the source (boundaries.spec.ts); this builds the console and looks in what came
 * out for what fastify, kafkajs, pg and PGlite leave in a bundle, and notes any import of a Node
 * module (Vite would quietly replace it with an empty one).
 */
const SERVER_MARKS = [
  /FST_ERR_/, // fastify's error codes
  /KafkaJS/,
  /pg-protocol|PGlite|@electric-sql/,
  /["']node:[a-z_]+["']/, // an import of Node's own modules left as it is
  /require\(["'](crypto|fs|net|tls|child_process)["']\)/,
];

describe('the console bundle', () => {
  const outDir = mkdtempSync(join(tmpdir(), 'console-bundle-'));
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('carries no server package and no Node module', async () => {
    const root = new URL('..', import.meta.url).pathname;
    // Vite would replace a Node module with an empty stand-in, so what asks for one is noted here.
    const nodeModules: string[] = [];
    const noteNodeModules: Plugin = {
      name: 'note-node-modules',
      enforce: 'pre',
      resolveId(source, importer) {
        if (source.startsWith('node:') || builtinModules.includes(source)) nodeModules.push(`${importer}: ${source}`);
        return null;
      },
    };
    await build({ root, logLevel: 'silent', plugins: [noteNodeModules], build: { outDir, emptyOutDir: true } });
    expect(nodeModules).toEqual([]);
    const scripts = readdirSync(outDir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(3);
    const found = scripts.flatMap((file) => {
      const text = readFileSync(join(outDir, file), 'utf8');
      return SERVER_MARKS.filter((mark) => mark.test(text)).map((mark) => `${file}: ${mark}`);
    });
    expect(found).toEqual([]);
  }, 180_000);
});
