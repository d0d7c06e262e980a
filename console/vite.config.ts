import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

/**
 * The console installs to a phone's home screen and, after one visit, opens with no network at
 * all (issue 18): Workbox precaches the app shell; a round's data is answered from the network
 * when there is one and else from the last answer kept (a scan made meanwhile waits in the
 * offline queue); the members' photos the roster showed are kept a day. Nothing else from /api is
 * kept on the device. The service worker is registered
 * by a script file, as the Content-Security-Policy allows no inline script.
 */
const ROUNDS_CACHE = 'rounds';
const PHOTOS_CACHE = 'photos';
const pwa = VitePWA({
  registerType: 'autoUpdate',
  injectRegister: 'script',
  manifest: {
    name: 'Course Portal',
    short_name: 'Courses',
    description: 'Courses, rounds and attendance by QR code',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    background_color: '#12181d',
    theme_color: '#12181d',
    icons: [{ src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' }],
  },
  workbox: {
    globPatterns: ['**/*.{js,css,html,svg,png,woff2}'],
    navigateFallback: '/index.html',
    // The API, uploads and the certificate page are the server's, never the app shell.
    navigateFallbackDenylist: [/^\/api\//, /^\/uploads\//, /^\/trust/],
    clientsClaim: true,
    skipWaiting: true,
    runtimeCaching: [
      {
        urlPattern: ({ url, request }) =>
          request.method === 'GET' && /^\/api\/admin\/rounds\/[^/]+$/.test(url.pathname),
        handler: 'NetworkFirst',
        options: {
          cacheName: ROUNDS_CACHE,
          networkTimeoutSeconds: 4,
          expiration: { maxEntries: 50 },
          // ?minPosition= (read-your-writes) varies; the round is the same.
          matchOptions: { ignoreSearch: true },
        },
      },
      {
        // Members' photos, as the roster shows them: the person at the door compares faces, offline too.
        urlPattern: ({ url, request }) => request.method === 'GET' && url.pathname.startsWith('/uploads/profiles/'),
        handler: 'CacheFirst',
        options: {
          cacheName: PHOTOS_CACHE,
          expiration: { maxEntries: 500, maxAgeSeconds: 24 * 3600 },
          cacheableResponse: { statuses: [200] },
        },
      },
    ],
  },
});

// `npm run dev -w console` serves the console with hot reload and sends /api to a running portal.
export default defineConfig({
  plugins: [react(), pwa],
  server: { proxy: { '/api': process.env.PORTAL_URL ?? 'http://localhost:3000' } },
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 800 },
});
