import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { messages } from '@portal/contracts/rules/messages';
import { en } from '../locales/en.ts';
import { th } from '../locales/th.ts';
import { storedLang } from './storage.ts';

/** Messages shared with the server (validation, sign-in answers), in the namespace `rules`. */
const rules = (lang: 'en' | 'th') =>
  Object.fromEntries(Object.entries(messages).map(([key, text]) => [key, text[lang]]));

const lang = storedLang();
document.documentElement.lang = lang;

void i18n.use(initReactI18next).init({
  lng: lang,
  fallbackLng: 'en',
  resources: { en: { translation: en, rules: rules('en') }, th: { translation: th, rules: rules('th') } },
  keySeparator: false,
  nsSeparator: '::',
  interpolation: { escapeValue: false },
});

export default i18n;
