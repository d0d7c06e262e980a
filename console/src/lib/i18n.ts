import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { messages } from '@portal/contracts/rules/messages';
import { storedLang } from './storage.ts';

/** Messages shared with the server (validation, sign-in answers), in the namespace `rules`. */
const rules = (lang: 'en' | 'th') =>
  Object.fromEntries(Object.entries(messages).map(([key, text]) => [key, text[lang]]));

const lang = storedLang();
document.documentElement.lang = lang;

/**
 * Only the language shown is downloaded (its own chunk): changing it reloads the page
 * (components/layouts/header.tsx), and the Thai words are typed as the English ones, so neither
 * lacks a word the other has. The console renders once this is ready (main.tsx).
 */
const words =
  lang === 'th' ? import('../locales/th.ts').then((m) => m.th) : import('../locales/en.ts').then((m) => m.en);

export const i18nReady = words.then((translation) =>
  i18n.use(initReactI18next).init({
    lng: lang,
    fallbackLng: false,
    resources: { [lang]: { translation, rules: rules(lang) } },
    keySeparator: false,
    nsSeparator: '::',
    interpolation: { escapeValue: false },
  }),
);

export default i18n;
