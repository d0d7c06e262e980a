import react from '@vitejs/plugin-react';
import { type Plugin, defineConfig } from 'vite';
import { messages } from '../contracts/src/rules/messages.ts';
import { en } from './src/locales/en.ts';
import { th } from './src/locales/th.ts';
import { isFirstRule, isFirstWord } from './src/locales/first-words.ts';
import { serviceWorker } from './service-worker.ts';

/**
 * A module made at build time from data this config holds: `virtual:<name>/<parts>` for each
 * `parts` that `pattern` matches, exporting what `make` answers for the pattern's groups.
 */
function virtualData(name: string, pattern: RegExp, make: (...groups: string[]) => unknown): Plugin {
  const prefix = `virtual:${name}/`;
  return {
    name: `virtual-${name}`,
    resolveId: (id) => (id.startsWith(prefix) && pattern.test(id.slice(prefix.length)) ? `\0${id}` : null),
    load(id) {
      const groups = id.startsWith(`\0${prefix}`) ? pattern.exec(id.slice(prefix.length + 1)) : null;
      return groups ? `export default ${JSON.stringify(make(...groups.slice(1)))};` : null;
    },
  };
}

/**
 * `virtual:rules/<en|th>/<first|rest>`: the messages shared with the server (every one in both
 * languages, in contracts/src/rules/messages.ts, bundled into this config) in one language each,
 * so a page downloads the shown language's only, and cut in two like the words: the sign-in
 * page's (locales/first-words.ts) with it, the rest with any other page.
 */
const rulesInTwo = virtualData('rules', /^(en|th)\/(first|rest)$/, (lang, part) =>
  Object.fromEntries(
    Object.entries(messages)
      .filter(([key]) => isFirstRule(key) === (part === 'first'))
      .map(([key, text]) => [key, text[lang as 'en' | 'th']]),
  ),
);

/**
 * `virtual:words/<en|th>/<first|rest>`: the console's words in one language, cut in two: those the
 * sign-in page shows (locales/first-words.ts), loaded with it, and the rest, loaded with any other
 * page (lib/i18n.ts).
 */
const wordsInTwo = virtualData('words', /^(en|th)\/(first|rest)$/, (lang, part) =>
  Object.fromEntries(
    Object.entries(lang === 'th' ? th : en).filter(([key]) => isFirstWord(key) === (part === 'first')),
  ),
);

// `npm run dev -w console` serves the console with hot reload and sends /api to a running portal.
export default defineConfig({
  // The service worker (issue 18): ./service-worker.ts.
  plugins: [react(), serviceWorker(), rulesInTwo, wordsInTwo],
  server: { proxy: { '/api': process.env.PORTAL_URL ?? 'http://localhost:3000' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 800,
    rollupOptions: {
      output: {
        // The words' and messages' chunks say whose they are (words-th-first, rules-en-rest).
        chunkFileNames: (chunk) => {
          const words = /virtual:(words|rules)\/(en|th)\/(first|rest)$/.exec(chunk.facadeModuleId ?? '');
          return words ? `assets/${words[1]}-${words[2]}-${words[3]}-[hash].js` : 'assets/[name]-[hash].js';
        },
      },
    },
  },
});
