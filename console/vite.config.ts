import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

/**
 * The console installs to a phone's home screen and, after one visit, opens with no network at
 * all (issue 18): the service worker (sw/sw.ts: Workbox precaching, a round's data
 * network-first, members' photos kept a day) is built by Vite itself with the precache list
 * injected (injectManifest: seconds faster than generateSW, which bundles it again with Rollup,
 * Babel and Terser). It is registered by a script file, as the Content-Security-Policy allows no
 * inline script.
 */
const pwa = VitePWA({
  strategies: 'injectManifest',
  srcDir: 'sw',
  filename: 'sw.ts',
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
  injectManifest: { globPatterns: ['**/*.{js,css,html,svg,png,woff2}'] },
});

// `npm run dev -w console` serves the console with hot reload and sends /api to a running portal.
export default defineConfig({
  plugins: [react(), pwa],
  server: { proxy: { '/api': process.env.PORTAL_URL ?? 'http://localhost:3000' } },
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 800 },
});
