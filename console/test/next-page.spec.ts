import { describe, expect, it } from 'vitest';
import { nextPage, signInThenBackTo } from '../src/lib/next-page.ts';

describe('where sign-in goes back to', () => {
  it('goes back to a page of this portal, with its query, and nowhere else', () => {
    const path = '/check-in/0123456789abcdef01234567?code=abc-_1&where=1';
    expect(signInThenBackTo(path)).toBe(`/login?next=${encodeURIComponent(path)}`);
    expect(nextPage(new URLSearchParams(signInThenBackTo(path).split('?')[1]).get('next'))).toBe(path);
    for (const elsewhere of [
      '//evil.example/x',
      '/\\evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
      '',
      null,
    ]) {
      expect(nextPage(elsewhere), String(elsewhere)).toBeNull();
    }
  });
});
