import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Plugin } from 'vite';

/** The web app manifest: the console installs to a phone's home screen (issue 18). */
const MANIFEST = {
  name: 'Course Portal',
  short_name: 'Courses',
  description: 'Courses, rounds and attendance by QR code',
  start_url: '/',
  display: 'standalone',
  background_color: '#12181d',
  theme_color: '#12181d',
  lang: 'en',
  scope: '/',
  icons: [{ src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' }],
};

/** Registers the service worker; a file of its own, as the Content-Security-Policy allows no inline script. */
const REGISTER = `if ('serviceWorker' in navigator) {
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js', { scope: '/' });
  });
}
`;

/**
 * The console's service worker (sw/sw.ts: Workbox precaching, a round's data network-first,
 * members' photos kept a day), made once the console is built: bundled by esbuild into one
 * classic script, then given the precache list of every file the build wrote (Workbox's own
 * injectManifest). Built by a second Vite build before (vite-plugin-pwa), it took 0.7 to 0.85 s of
 * each console build; esbuild takes a tenth of that (docs/performance.md). The manifest and the
 * registering script are written with it, and named in the page only in the build (the
 * development server has no service worker).
 */
export function serviceWorker(): Plugin {
  let outDir = '';
  let root = '';
  return {
    name: 'portal-service-worker',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = resolve(config.root, config.build.outDir);
    },
    transformIndexHtml: () => [
      { tag: 'link', attrs: { rel: 'manifest', href: '/manifest.webmanifest' }, injectTo: 'head' },
      { tag: 'script', attrs: { id: 'register-sw', src: '/registerSW.js' }, injectTo: 'head' },
    ],
    async closeBundle() {
      writeFileSync(join(outDir, 'manifest.webmanifest'), JSON.stringify(MANIFEST));
      writeFileSync(join(outDir, 'registerSW.js'), REGISTER);
      const swDest = join(outDir, 'sw.js');
      const { build } = await import('esbuild');
      await build({
        entryPoints: [join(root, 'sw/sw.ts')],
        outfile: swDest,
        bundle: true,
        format: 'iife',
        minify: true,
        target: 'es2020',
        define: { 'process.env.NODE_ENV': '"production"' },
        logLevel: 'warning',
      });
      // Its own module: workbox-build's index loads generateSW's Rollup, Babel and Terser too (0.77 s against 0.13 s).
      const { injectManifest } = await import('workbox-build/build/inject-manifest.js');
      const { warnings } = await injectManifest({
        swSrc: swDest,
        swDest,
        globDirectory: outDir,
        globPatterns: ['**/*.{js,css,html,svg,png,woff2,webmanifest}'],
        globIgnores: ['sw.js'],
        // Vite names each asset by its content: its name is its revision.
        dontCacheBustURLsMatching: /^assets\//,
      });
      for (const warning of warnings) this.warn(warning);
    },
  };
}
