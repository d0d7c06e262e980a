import { useParams } from 'react-router-dom';
import { CourseDetailsPage } from '../../features/courses/components/course-details-page.tsx';

export default function CourseDetailsRoute() {
  const { id } = useParams();
  return <CourseDetailsPage key={id} id={id} />;
}
