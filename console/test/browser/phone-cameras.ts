/**
 * An init script (Playwright's addInitScript, given `ways` as its argument) giving the page's
 * camera a phone's ways, where Chromium's fake cameras are kinder. It runs in the page, so it uses
 * nothing from outside this function.
 *
 * - `oneAtATime`: like many Android phones, one camera open at a time. Asked for a picture while a
 *   track it gave is still live, it refuses as they do (NotReadableError, "Could not start video
 *   source"), where Chromium's fake cameras would open a second (html5-qrcode issues #38 and #483:
 *   a scanner opening a camera before the last one is stopped fails on those phones).
 * - `openingMs`: each camera takes that long to open, as a phone's does while it asks its owner or
 *   wakes the camera up: time for a person to leave the page, or choose another, meanwhile.
 * - At any time the test may set `window.cameraRules`: `{ slow: { [deviceId]: ms }, failing:
 *   deviceId }`, one camera slower than the rest, or one that never opens (in use by another app).
 *
 * `window.openCameras()` says how many cameras the page holds open.
 */
export function phoneCameras(ways: { oneAtATime?: boolean; openingMs?: number }) {
  interface Rules {
    slow?: Record<string, number>;
    failing?: string;
  }
  const devices = navigator.mediaDevices;
  const open = devices.getUserMedia.bind(devices);
  const given: MediaStreamTrack[] = [];
  const askedFor = (constraints?: MediaStreamConstraints) => {
    const video = constraints?.video;
    const id = typeof video === 'object' ? video.deviceId : undefined;
    const named = typeof id === 'object' && !Array.isArray(id) ? (id.exact ?? id.ideal) : id;
    return (Array.isArray(named) ? named[0] : named) ?? '';
  };
  devices.getUserMedia = async (constraints) => {
    const rules = ((window as unknown as { cameraRules?: Rules }).cameraRules ?? {}) as Rules;
    const asked = askedFor(constraints);
    const wait = rules.slow?.[asked] ?? ways.openingMs ?? 0;
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const busy = ways.oneAtATime && given.some((track) => track.readyState === 'live');
    if (busy || (asked !== '' && rules.failing === asked)) {
      throw new DOMException('Could not start video source', 'NotReadableError');
    }
    const stream = await open(constraints);
    given.push(...stream.getVideoTracks());
    return stream;
  };
  // How many cameras the page holds open, for the test to ask.
  Object.assign(window, { openCameras: () => given.filter((track) => track.readyState === 'live').length });
}
