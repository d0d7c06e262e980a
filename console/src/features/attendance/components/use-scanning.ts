import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, NetworkError } from '../../../lib/api-client.ts';
import { queueScan, queuedScans, replayQueue } from '../api/offline-queue.ts';
import { type ScanAnswer, type ScanMethod, roundKey, sendScan } from '../api/rounds.ts';
import type { Outcome } from './scan-outcome.tsx';
import { useScanSound } from './use-scan-sound.ts';

/** A random id that works without a secure context too (a phone on the local network). */
const randomId = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');

/** This browser's scanning device id, kept so the audit can tell devices apart. */
function deviceId(): string {
  let id = localStorage.getItem('scanner.device');
  if (!id) {
    id = randomId();
    localStorage.setItem('scanner.device', id);
  }
  return id;
}

/**
 * Sending scans: each outcome shown and heard at once; without a connection the scan waits in
 * the browser's queue (with its time and key) and is sent when the connection returns, which
 * the page then says (how many were sent) in place of the waiting notice.
 */
export function useScanning(roundId: string, courseId: string | undefined, time: (iso: string) => string) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const sound = useScanSound();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [waiting, setWaiting] = useState(0);
  const replaying = useRef(false);

  const show = useCallback(
    (answer: ScanAnswer) => {
      const name = answer.member?.fullName || answer.member?._id || null;
      if (answer.outcome === 'accepted') {
        setOutcome({ tone: 'accepted', name: name ?? '', late: Boolean(answer.late), walkIn: Boolean(answer.walkIn) });
      } else if (answer.reason === 'duplicate' && answer.firstScannedAt) {
        setOutcome({ tone: 'duplicate', name: name ?? '', at: time(answer.firstScannedAt) });
      } else {
        setOutcome({ tone: 'refused', name, message: answer.message });
      }
      sound.play(answer.outcome === 'accepted');
    },
    [sound, time],
  );
  const refresh = useCallback(() => {
    void client.invalidateQueries({ queryKey: roundKey(roundId) });
    if (courseId) void client.invalidateQueries({ queryKey: ['courses', 'one', courseId] });
  }, [client, roundId, courseId]);

  const replay = useCallback(async () => {
    if (replaying.current) return;
    replaying.current = true;
    try {
      const sent = await replayQueue(() => {});
      if (sent > 0) {
        // The "no connection, N waiting" notice gives way to what happened to them.
        setOutcome({ tone: 'sent', count: sent });
        refresh();
      }
    } finally {
      replaying.current = false;
      setWaiting((await queuedScans()).length);
    }
  }, [refresh]);

  useEffect(() => {
    void replay();
    window.addEventListener('online', replay);
    const timer = setInterval(() => void replay(), 15_000);
    return () => {
      window.removeEventListener('online', replay);
      clearInterval(timer);
    };
  }, [replay]);

  /** Sends one attempt; answers a field error for bad input (nothing was recorded), else null. */
  const submit = useCallback(
    async (userId: string, method: ScanMethod): Promise<string | null> => {
      const body = { userId, method, deviceId: deviceId(), deviceTime: new Date().toISOString() };
      const key = randomId();
      try {
        show(await sendScan(roundId, body, key));
        refresh();
      } catch (error) {
        if (error instanceof NetworkError) {
          await queueScan({ key, roundId, body });
          const count = (await queuedScans()).length;
          setWaiting(count);
          setOutcome({ tone: 'queued', count });
          sound.play(true);
        } else if (error instanceof ApiError && error.body.outcome) {
          show(error.body as unknown as ScanAnswer);
          refresh();
        } else if (error instanceof ApiError && error.body.errors) {
          return Object.values(error.body.errors)[0] ?? t('round.appendFailed');
        } else {
          setOutcome({
            tone: 'refused',
            name: null,
            message: error instanceof ApiError ? error.message || t('round.appendFailed') : t('round.appendError'),
          });
          sound.play(false);
        }
      }
      return null;
    },
    [roundId, show, refresh, sound, t],
  );

  return { outcome, waiting, submit, muted: sound.muted, toggleSound: sound.toggle };
}
