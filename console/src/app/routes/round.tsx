import { useParams } from 'react-router-dom';
import { RoundPage } from '../../features/attendance/components/round-page.tsx';

export default function RoundRoute() {
  const { courseId, roundId } = useParams();
  return <RoundPage key={roundId} courseId={courseId!} roundId={roundId!} />;
}
