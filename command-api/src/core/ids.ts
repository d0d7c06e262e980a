import { randomBytes } from 'node:crypto';

/** New ids look like the old product's (24 hex digits) and say nothing about what they name. */
export const newId = () => randomBytes(12).toString('hex');
