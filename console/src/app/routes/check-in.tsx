import { useParams } from 'react-router-dom';
import { SelfCheckInPage } from '../../features/attendance/components/self-check-in-page.tsx';

/** /check-in (the scanner, to read the room code) and /check-in/{roundId}?code=… (its link). */
export default function CheckInRoute() {
  const { roundId } = useParams();
  return <SelfCheckInPage key={roundId ?? ''} roundId={roundId ?? null} />;
}
