/**
 * Init scripts (Playwright's addInitScript) giving the page's camera a phone's ways, where
 * Chromium's fake cameras are kinder: run in the page, so they use nothing from outside it.
 */
/**
 * An init script making the page's camera behave like many Android phones': one camera open at a
 * time. Asked for a picture while a track it gave is still live, it refuses as they do
 * (NotReadableError, "Could not start video source"), where Chromium's fake cameras would open a
 * second (html5-qrcode issues #38 and #483: a scanner opening a camera before the last one is
 * stopped fails on those phones). `window.openCameras()` says how many cameras the page holds open.
 */
export function oneCameraAtATime() {
  const devices = navigator.mediaDevices;
  const open = devices.getUserMedia.bind(devices);
  const given: MediaStreamTrack[] = [];
  devices.getUserMedia = async (constraints) => {
    if (given.some((track) => track.readyState === 'live')) {
      throw new DOMException('Could not start video source', 'NotReadableError');
    }
    const stream = await open(constraints);
    given.push(...stream.getVideoTracks());
    return stream;
  };
  // How many cameras the page holds open, for the test to ask.
  Object.assign(window, { openCameras: () => given.filter((track) => track.readyState === 'live').length });
}

/**
 * An init script making the page's camera take a second to open, as a phone's does while it asks
 * its owner or wakes the camera up: time for a person to leave the page meanwhile.
 */
export function slowToOpen() {
  const devices = navigator.mediaDevices;
  const open = devices.getUserMedia.bind(devices);
  devices.getUserMedia = async (constraints) => {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    return open(constraints);
  };
}
