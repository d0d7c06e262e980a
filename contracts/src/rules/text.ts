import { z } from 'zod';
import type { MessageKey } from './messages.ts';

/**
 * What a text field may hold. Every text a command accepts ends up in the log, in read models and
 * in exports, so characters that PostgreSQL cannot store (NUL), that are not text at all (a lone
 * UTF-16 surrogate) or that only control a terminal are refused at the door, field by field, in
 * the user's language. Right-to-left marks, zero-width joiners, Thai combining marks and emoji
 * are text and pass.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** C0 controls but tab, line feed and carriage return; DEL; C1 controls. */
// eslint-disable-next-line no-control-regex
const CONTROL_BUT_LINES = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
const LINE_BREAK_OR_TAB = /[\t\n\r\u2028\u2029]/;

/** Why a string cannot be stored as text (a message key), or null when it can. */
export function textProblem(value: string, lines: 'single' | 'multi'): MessageKey | null {
  if (LONE_SURROGATE.test(value) || CONTROL_BUT_LINES.test(value)) return 'text.invalidCharacters';
  if (lines === 'single' && LINE_BREAK_OR_TAB.test(value)) return 'text.singleLine';
  return null;
}

/**
 * A zod string for one line of text (a name, a topic, an id): the check comes first, so its
 * message is the one shown when the text also breaks another rule.
 */
export const singleLineText = (error?: MessageKey) => checkedText(error, 'single');
/** A zod string for text that may hold several lines (a description, a message): tab and line breaks pass. */
export const multiLineText = (error?: MessageKey) => checkedText(error, 'multi');

function checkedText(error: MessageKey | undefined, lines: 'single' | 'multi') {
  return z.string(error ? { error } : undefined).superRefine((value, context) => {
    const problem = textProblem(value, lines);
    if (problem) context.addIssue({ code: 'custom', message: problem, input: value });
  });
}

/**
 * The same check over a whole request (body, query, path parameters), for the HTTP kit: any
 * string anywhere, under any name, that a field's own rule may not cover. Line breaks pass here;
 * the fields' own rules say where they do not belong. Answers each offending path.
 */
export function invalidTextPaths(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (typeof value === 'string') return textProblem(value, 'multi') ? [path] : [];
  if (Array.isArray(value)) return value.flatMap((item, index) => invalidTextPaths(item, [...path, index]));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([name, item]) => {
      const here = [...path, name];
      // A field's name is text too: `{"a\u0000": 1}` must not reach a JSON column either.
      return [...(textProblem(name, 'single') ? [here] : []), ...invalidTextPaths(item, here)];
    });
  }
  return [];
}

// eslint-disable-next-line no-control-regex
const CONTROL_BUT_LINES_ALL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;
const LONE_SURROGATE_ALL = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Whether a string may need cleaning: any character cleanText drops or replaces, or either half of
 * a surrogate pair (kept when paired). Nearly every text needs none, and the two replacements
 * scan it twice even then (the lone surrogates' lookbehind slowly): a rebuild cleans every name
 * and contact it opens and seals.
 */
// eslint-disable-next-line no-control-regex
const MAYBE_UNCLEAN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uD800-\uDFFF]/;

/**
 * Text as read models can store it, for what was written before the rules above: control
 * characters dropped, a lone surrogate replaced by U+FFFD (as a UTF-8 encoder does), in every
 * string of `value`, keys included. What needs no cleaning comes back as it was (the same object).
 */
export function cleanText<T>(value: T): T {
  if (typeof value === 'string') {
    if (!MAYBE_UNCLEAN.test(value)) return value;
    return value.replace(CONTROL_BUT_LINES_ALL, '').replace(LONE_SURROGATE_ALL, '\uFFFD') as T;
  }
  if (Array.isArray(value)) {
    const cleaned = value.map(cleanText);
    return (cleaned.some((item, i) => item !== value[i]) ? cleaned : value) as T;
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value);
    const cleaned = entries.map(([key, item]) => [cleanText(key), cleanText(item)] as const);
    const same = cleaned.every(([key, item], i) => key === entries[i]![0] && item === entries[i]![1]);
    return (same ? value : Object.fromEntries(cleaned)) as T;
  }
  return value;
}
