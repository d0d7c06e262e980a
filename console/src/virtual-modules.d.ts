// A file of ambient declarations, which may not import: the types are named where they are used.
/* eslint-disable @typescript-eslint/consistent-type-imports */
/** The messages shared with the server in one language, the sign-in page's or the rest (vite.config.ts). */
declare module 'virtual:rules/*' {
  const rules: Partial<Record<import('@portal/contracts/rules/messages').MessageKey, string>>;
  export default rules;
}

/** The console's words in one language, the sign-in page's or the rest (vite.config.ts). */
declare module 'virtual:words/*' {
  const words: Partial<import('./locales/en.ts').Words>;
  export default words;
}
