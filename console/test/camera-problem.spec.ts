import { describe, expect, it } from 'vitest';
import { cameraProblemOf, noCamera } from '../src/lib/camera-problem.ts';

const domError = (name: string) => Object.assign(new Error(`${name}: from the browser`), { name });

/** Each way a camera fails gets its own answer, whether the browser's error or html5-qrcode's text of it. */
describe('why the camera could not open', () => {
  it('names a page that is not secure before anything else', () => {
    expect(cameraProblemOf(domError('NotAllowedError'), false)).toBe('insecure');
    expect(cameraProblemOf('Camera access is only supported in secure context like https or localhost.', true)).toBe(
      'insecure',
    );
  });

  it('tells a refusal, a missing camera and a busy one apart', () => {
    for (const [error, problem] of [
      [domError('NotAllowedError'), 'denied'],
      ['Error getting userMedia, error = NotAllowedError: Permission denied', 'denied'],
      [domError('NotFoundError'), 'missing'],
      [noCamera(), 'missing'],
      [domError('OverconstrainedError'), 'missing'],
      [domError('NotReadableError'), 'busy'],
      ['Error getting userMedia, error = NotReadableError: Could not start video source', 'busy'],
      [new Error('something else'), 'failed'],
    ] as const) {
      expect(cameraProblemOf(error, true), String(error)).toBe(problem);
    }
  });
});
