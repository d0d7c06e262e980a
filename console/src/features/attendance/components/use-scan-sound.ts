import { useCallback, useRef, useState } from 'react';

const MUTED_KEY = 'scanner.muted';

/**
 * A short rising chirp when a scan is accepted, a low double buzz when it is not, so the person
 * scanning knows without reading. Muting is remembered on the device.
 */
export function useScanSound() {
  const [muted, setMuted] = useState(() => localStorage.getItem(MUTED_KEY) === 'true');
  const context = useRef<AudioContext | null>(null);
  const play = useCallback(
    (accepted: boolean) => {
      if (muted || typeof AudioContext === 'undefined') return;
      const audio = (context.current ??= new AudioContext());
      const tones = accepted
        ? [
            [880, 0, 0.09],
            [1320, 0.1, 0.12],
          ]
        : [
            [180, 0, 0.16],
            [180, 0.22, 0.16],
          ];
      for (const [frequency, start, length] of tones as [number, number, number][]) {
        const oscillator = audio.createOscillator();
        const gain = audio.createGain();
        oscillator.type = accepted ? 'sine' : 'square';
        oscillator.frequency.value = frequency;
        gain.gain.value = 0.15;
        oscillator.connect(gain).connect(audio.destination);
        oscillator.start(audio.currentTime + start);
        oscillator.stop(audio.currentTime + start + length);
      }
    },
    [muted],
  );
  const toggle = () =>
    setMuted((was) => {
      localStorage.setItem(MUTED_KEY, String(!was));
      return !was;
    });
  return { muted, toggle, play };
}
