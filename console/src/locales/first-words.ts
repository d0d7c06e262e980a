/**
 * The words the sign-in page shows (the header, the sign-in form, its dialogs, the refusal and
 * not-found views): a whole group by its prefix, or one word. They come with the page; the rest
 * come with any other page (lib/i18n.ts), and a word asked for before then loads them too.
 */
const FIRST = [
  'accessDenied.',
  'app.',
  'dialog.',
  'header.',
  'login.',
  'nav.',
  'notFound.',
  'screen.',
  'form.loading',
  'notifications.badge',
  'report.retry',
  'settings.invalidStoredUser',
  'settings.retry',
];

export const isFirstWord = (key: string) =>
  FIRST.some((entry) => (entry.endsWith('.') ? key.startsWith(entry) : key === entry));

/** The messages shared with the server that the sign-in page shows (namespace `rules`). */
const FIRST_RULES = ['login.'];

export const isFirstRule = (key: string) => FIRST_RULES.some((prefix) => key.startsWith(prefix));
