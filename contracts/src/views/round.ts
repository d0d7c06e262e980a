import { z } from 'zod';

/** Spec 001 section 3, Round: `scanned` entries `{_id, user, scannedAt}`; plus what a live room needs. */
export const ScannedEntry = z.object({
  _id: z.string(),
  user: z.object({ _id: z.string(), fullName: z.string().nullable(), username: z.string().nullable() }),
  scannedAt: z.string(),
  late: z.boolean(),
  walkIn: z.boolean(),
  method: z.string(),
});

/** Everyone expected in the round (enrolled) and anyone scanned in, with whether they are here yet. */
export const RosterEntry = z.object({
  _id: z.string(),
  fullName: z.string().nullable(),
  username: z.string().nullable(),
  scannedAt: z.string().nullable(),
  late: z.boolean(),
  /** Expected: enrolled when the round started (or now, for a round still to come). */
  enrolled: z.boolean(),
  /** Enrolled in the course now: scanned, not a walk-in (what a scanner offline decides by). */
  enrolledNow: z.boolean(),
  /** The member's profile photo (/uploads/...), for the person at the door to compare faces. */
  photo: z.string().nullable(),
});

export const RoundDetails = z.object({
  success: z.literal(true),
  round: z.object({
    _id: z.string(),
    courseId: z.string(),
    courseTopic: z.string(),
    roundNumber: z.number(),
    roundStartTime: z.string(),
    roundEndTime: z.string(),
    active: z.boolean(),
    /**
     * Whether scanning is open now, by the server's clock and the portal's scanning margins
     * (SCAN_OPENS_EARLY_MINUTES, SCAN_CLOSES_LATE_MINUTES): before, the page says so; after, it
     * shows what was recorded, read-only.
     */
    scanning: z.enum(['upcoming', 'open', 'ended']),
    /** When scanning opens and closes, and from when a scan is late: what a scanner decides by offline. */
    scanWindow: z.object({ opensAt: z.string(), closesAt: z.string(), lateFrom: z.string() }),
    scanned: z.array(ScannedEntry),
    attended: z.number(),
    /** Enrolled and not scanned, once the round has ended (0 before). */
    absent: z.number(),
    /** Enrolled and not scanned yet. */
    missing: z.number(),
    expected: z.number(),
    roster: z.array(RosterEntry),
  }),
  serverTime: z.string(),
  /**
   * The public key passes are signed with (Ed25519, base64url): with it and the roster a scanner
   * decides alone while it has no connection (issue 18).
   */
  passKey: z.string(),
  message: z.string(),
});
export type RoundDetails = z.infer<typeof RoundDetails>;

export const PassAnswer = z.object({
  success: z.literal(true),
  memberId: z.string(),
  code: z.string(),
  expiresAt: z.string(),
});

/** GET /api/admin/rounds/{roundId}/room-code: the code on the projector now (issue 23). */
export const RoomCodeAnswer = z.object({
  code: z.string(),
  expiresAt: z.string(),
  rotatesEveryMs: z.number(),
  serverTime: z.string(),
  /** The course asks where members are: the check-in link says so, so the phone asks for its place at once. */
  needsLocation: z.boolean(),
});
export type RoomCodeAnswer = z.infer<typeof RoomCodeAnswer>;
