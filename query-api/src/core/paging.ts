/** A LIKE pattern that finds `text` anywhere, lower-cased, its wildcards and escape taken literally. */
export const containsPattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** How many pages `total` rows make (at least one, so "Page 1 of 1" even when empty). */
export const pagesOf = (total: number, pageSize: number) => Math.max(1, Math.ceil(total / pageSize));
