import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { storedLang } from './storage.ts';

const lang = storedLang();
document.documentElement.lang = lang;

/**
 * Only the language shown is downloaded: changing it reloads the page
 * (components/layouts/header.tsx), and the Thai words are typed as the English ones, so neither
 * lacks a word the other has. The sign-in page's words come first (locales/first-words.ts); the
 * console renders once they are here (main.tsx).
 */
const firstWords =
  lang === 'th'
    ? import('virtual:words/th/first').then((m) => m.default)
    : import('virtual:words/en/first').then((m) => m.default);

let rest: Promise<void> | undefined;
let restHere = false;
/**
 * The rest of the shown language's words and shared messages, added once: every page but
 * sign-in's waits for them before it renders (app/router.tsx), and a word asked for before then
 * fetches them, shows as nothing meanwhile, and is shown when they come (react-i18next renders
 * again on 'added').
 */
export function restOfWords(): Promise<void> {
  rest ??= Promise.all(
    lang === 'th'
      ? [import('virtual:words/th/rest'), import('virtual:rules/th/rest')]
      : [import('virtual:words/en/rest'), import('virtual:rules/en/rest')],
  ).then(
    ([{ default: words }, { default: rulesRest }]) => {
      i18n.addResourceBundle(lang, 'rules', rulesRest, true, true);
      i18n.addResourceBundle(lang, 'translation', words, true, true);
      restHere = true;
    },
    (error: unknown) => {
      rest = undefined; // fetched again when next asked (the network may be back)
      throw error;
    },
  );
  return rest;
}
/**
 * The messages shared with the server (validation, sign-in answers; namespace `rules`), in the
 * shown language only, cut like the words: vite.config.ts makes them from
 * contracts/src/rules/messages.ts at build.
 */
const rules =
  lang === 'th'
    ? import('virtual:rules/th/first').then((m) => m.default)
    : import('virtual:rules/en/first').then((m) => m.default);

export const i18nReady = Promise.all([firstWords, rules]).then(([translation, rulesInLang]) =>
  i18n.use(initReactI18next).init({
    lng: lang,
    fallbackLng: false,
    resources: { [lang]: { translation, rules: rulesInLang } },
    keySeparator: false,
    nsSeparator: '::',
    interpolation: { escapeValue: false },
    react: { bindI18nStore: 'added' },
    parseMissingKeyHandler: (key: string) => {
      if (restHere) return key;
      restOfWords().catch(() => undefined); // the page that needs them says if they cannot come
      return '';
    },
  }),
);

export default i18n;
