import react from '@vitejs/plugin-react';
import { type Plugin, defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { messages } from '../contracts/src/rules/messages.ts';
import { en } from './src/locales/en.ts';
import { th } from './src/locales/th.ts';
import { isFirstWord } from './src/locales/first-words.ts';

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

/**
 * `virtual:rules/en` and `virtual:rules/th`: the messages shared with the server (every one in
 * both languages, in contracts/src/rules/messages.ts, bundled into this config) in one language
 * each, so a page downloads the shown language's only.
 */
const rulesInOneLanguage: Plugin = {
  name: 'rules-in-one-language',
  resolveId: (id) => (/^virtual:rules\/(en|th)$/.test(id) ? `\0${id}` : null),
  load(id) {
    const lang = /^\0virtual:rules\/(en|th)$/.exec(id)?.[1] as 'en' | 'th' | undefined;
    if (!lang) return null;
    const inLang = Object.fromEntries(Object.entries(messages).map(([key, text]) => [key, text[lang]]));
    return `export default ${JSON.stringify(inLang)};`;
  },
};

/**
 * `virtual:words/<en|th>/<first|rest>`: the console's words in one language, cut in two: those the
 * sign-in page shows (locales/first-words.ts), loaded with it, and the rest, loaded with any other
 * page (lib/i18n.ts).
 */
const wordsInTwo: Plugin = {
  name: 'words-in-two',
  resolveId: (id) => (/^virtual:words\/(en|th)\/(first|rest)$/.test(id) ? `\0${id}` : null),
  load(id) {
    const [, lang, part] = /^\0virtual:words\/(en|th)\/(first|rest)$/.exec(id) ?? [];
    if (!lang) return null;
    const words = Object.entries(lang === 'th' ? th : en).filter(([key]) => isFirstWord(key) === (part === 'first'));
    return `export default ${JSON.stringify(Object.fromEntries(words))};`;
  },
};

// `npm run dev -w console` serves the console with hot reload and sends /api to a running portal.
export default defineConfig({
  plugins: [react(), pwa, rulesInOneLanguage, wordsInTwo],
  server: { proxy: { '/api': process.env.PORTAL_URL ?? 'http://localhost:3000' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 800,
    rollupOptions: {
      output: {
        // The words' chunks say whose they are (words-th-first, words-en-rest).
        chunkFileNames: (chunk) => {
          const words = /virtual:words\/(en|th)\/(first|rest)$/.exec(chunk.facadeModuleId ?? '');
          return words ? `assets/words-${words[1]}-${words[2]}-[hash].js` : 'assets/[name]-[hash].js';
        },
      },
    },
  },
});
