import { useQuery } from '@tanstack/react-query';
import type { RoomCodeAnswer } from '@portal/contracts/views/round';
import { api } from '../../../lib/api-client.ts';

export type RoomCode = RoomCodeAnswer;

/**
 * GET /api/admin/rounds/{roundId}/room-code while the room code is on screen: asked again as each
 * code expires (by the server's clock, measured against this one when it answered).
 */
export const useRoomCode = (roundId: string, shown: boolean) =>
  useQuery({
    queryKey: ['room-code', roundId],
    queryFn: async () => ({
      ...(await api<RoomCode>(`/api/admin/rounds/${roundId}/room-code`)),
      receivedAt: Date.now(),
    }),
    enabled: shown,
    gcTime: 0,
    refetchInterval: (query) => {
      const data = query.state.data;
      if (!data) return 1000;
      const left = Date.parse(data.expiresAt) - Date.parse(data.serverTime) - (Date.now() - data.receivedAt);
      return Math.max(250, left + 150);
    },
    refetchIntervalInBackground: true,
  });

/** The link a member's phone opens from the room code: this portal's check-in page for the round. */
export const checkInLink = (roundId: string, code: RoomCode, origin = window.location.origin) =>
  `${origin}/check-in/${roundId}?code=${encodeURIComponent(code.code)}${code.needsLocation ? '&where=1' : ''}`;
