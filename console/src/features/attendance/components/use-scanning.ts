import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, NetworkError } from '../../../lib/api-client.ts';
import { measureClockOffset, serverNow } from '../api/clock.ts';
import { admittedOffline, queueScan, queuedScans, replayQueue } from '../api/offline-queue.ts';
import { type ScanAnswer, type ScanBody, type ScanMethod, sendScan } from '../api/send-scan.ts';
import { roundKey } from '../api/get-round.ts';
import { correctionOf } from '../offline/corrections.ts';
import { type OfflineVerdict, type RoomSnapshot, decideOffline } from '../offline/decide-offline.ts';
import type { Outcome } from './scan-outcome.tsx';
import { useScanSound } from './use-scan-sound.ts';

type Translate = (key: string, values?: Record<string, unknown>) => string;

/** The photo the roster holds for a member, if any. */
const photoOf = (room: RoomSnapshot | undefined, memberId: string | null | undefined) =>
  (memberId && room?.roster.find((person) => person._id === memberId)?.photo) || null;

/** The banner for a decision made offline: as online, marked "offline: will be confirmed". */
function outcomeOf(
  verdict: OfflineVerdict,
  t: Translate,
  time: (iso: string) => string,
  photo: string | null,
): Outcome {
  const name = verdict.name ?? verdict.memberId ?? '';
  switch (verdict.decision) {
    case 'accepted':
      return { tone: 'accepted', name, late: Boolean(verdict.late), walkIn: false, offline: true, photo };
    case 'walkInRequested':
      return { tone: 'requested', name: verdict.name ?? verdict.memberId, offline: true, photo };
    case 'duplicate':
      return { tone: 'duplicate', name, at: time(verdict.firstScannedAt!), offline: true, photo };
    default:
      return {
        tone: 'refused',
        name: verdict.name,
        message: t(`rules::attendance.${verdict.decision}`),
        offline: true,
        photo,
      };
  }
}

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
 * Sending scans: each outcome shown and heard at once. Without a connection the device decides
 * alone from the round it last synced (`room`: roster, times, the passes' public key) and its
 * clock corrected to the server's, shows and sounds that decision marked "offline: will be
 * confirmed", and keeps the scan in the browser's queue (with its time, key and decision). When
 * the connection returns the queue is sent; the page says how many, and each answer that
 * differs from what the device said.
 */
export function useScanning(
  roundId: string,
  courseId: string | undefined,
  time: (iso: string) => string,
  room: RoomSnapshot | undefined,
) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const sound = useScanSound();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [waiting, setWaiting] = useState(0);
  /** Who this device let in offline and has not sent yet (member id to device time). */
  const [admitted, setAdmitted] = useState<ReadonlyMap<string, string>>(new Map());
  const recount = useCallback(async () => {
    setWaiting((await queuedScans()).length);
    setAdmitted(await admittedOffline(roundId));
  }, [roundId]);
  const replaying = useRef(false);

  const show = useCallback(
    (answer: ScanAnswer) => {
      const name = answer.member?.fullName || answer.member?._id || null;
      const photo = photoOf(room, answer.member?._id);
      if (answer.outcome === 'accepted') {
        const { late, walkIn } = answer;
        setOutcome({ tone: 'accepted', name: name ?? '', late: Boolean(late), walkIn: Boolean(walkIn), photo });
      } else if (answer.reason === 'duplicate' && answer.firstScannedAt) {
        setOutcome({ tone: 'duplicate', name: name ?? '', at: time(answer.firstScannedAt), photo });
      } else {
        setOutcome({ tone: 'refused', name, message: answer.message, photo });
      }
      sound.play(answer.outcome === 'accepted');
    },
    [sound, time, room],
  );
  const refresh = useCallback(() => {
    void client.invalidateQueries({ queryKey: roundKey(roundId) });
    if (courseId) void client.invalidateQueries({ queryKey: ['courses', 'one', courseId] });
  }, [client, roundId, courseId]);

  // What the replay needs, kept current without making the replay itself change: its effect
  // (on mount, on 'online', every 15 s) must not run again on every render (found: it did, and
  // sent a scan decided offline at once).
  const latest = useRef({ t, time, sound, refresh, recount });
  useEffect(() => {
    latest.current = { t, time, sound, refresh, recount };
  });
  const replay = useCallback(async () => {
    const { t: translate, time: clock, sound: speaker, refresh: reload, recount: count } = latest.current;
    if (replaying.current) return;
    // The browser knows it has no connection: wait for its 'online' event.
    if (!navigator.onLine) return void (await count());
    replaying.current = true;
    try {
      void measureClockOffset().catch(() => undefined); // each sync measures the clock again
      const corrections: string[] = [];
      const sent = await replayQueue((scan, answer) => {
        const correction = correctionOf(scan.verdict, answer, translate, clock);
        if (correction) corrections.push(correction);
      });
      if (sent > 0) {
        // The "no connection, N waiting" notice gives way to what happened to them.
        setOutcome({ tone: 'sent', count: sent, corrections });
        speaker.play(corrections.length === 0);
        reload();
      }
    } finally {
      replaying.current = false;
      await count();
    }
  }, []);

  useEffect(() => {
    void replay();
    window.addEventListener('online', replay);
    const timer = setInterval(() => void replay(), 15_000);
    return () => {
      window.removeEventListener('online', replay);
      clearInterval(timer);
    };
  }, [replay]);

  /** With no connection: decide alone, say so, and keep the scan to send later. */
  const offline = useCallback(
    async (body: ScanBody, key: string) => {
      const verdict = room
        ? decideOffline(body.userId, body.method, room, serverNow(), await admittedOffline(roundId))
        : undefined;
      await queueScan({
        key,
        roundId,
        body: verdict ? { ...body, offlineDecision: verdict.decision } : body,
        verdict,
      });
      const count = (await queuedScans()).length;
      await recount();
      if (!verdict) {
        setOutcome({ tone: 'queued', count });
        sound.play(true);
        return;
      }
      setOutcome(outcomeOf(verdict, t, time, photoOf(room, verdict.memberId)));
      sound.play(verdict.decision === 'accepted' || verdict.decision === 'walkInRequested');
    },
    [room, roundId, sound, t, time, recount],
  );

  /** Sends one attempt; answers a field error for bad input (nothing was recorded), else null. */
  const submit = useCallback(
    async (userId: string, method: ScanMethod): Promise<string | null> => {
      // The device's time, corrected by the offset measured at the last sync.
      const body: ScanBody = { userId, method, deviceId: deviceId(), deviceTime: new Date(serverNow()).toISOString() };
      const key = randomId();
      // The browser knows it is offline: decide at once, without waiting for a request to fail.
      if (!navigator.onLine) {
        await offline(body, key);
        return null;
      }
      try {
        show(await sendScan(roundId, body, key));
        refresh();
      } catch (error) {
        if (error instanceof NetworkError) {
          await offline(body, key);
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
    [roundId, show, refresh, sound, t, offline],
  );

  return { outcome, waiting, admitted, submit, muted: sound.muted, toggleSound: sound.toggle };
}
