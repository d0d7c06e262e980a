/**
 * The versions of the legal texts the console shows (spec 000: terms last updated 14 June 2567,
 * consent notice and cookie policy 16 June 2568, Buddhist era). A consent records the version the
 * person agreed to; a new text gets a new date here.
 */
export const legalVersions = {
  terms: '2024-06-14',
  privacy: '2025-06-16',
  cookie: '2025-06-16',
} as const;

export const consentToCurrentTexts = () => [
  { document: 'terms' as const, version: legalVersions.terms },
  { document: 'privacy' as const, version: legalVersions.privacy },
];
