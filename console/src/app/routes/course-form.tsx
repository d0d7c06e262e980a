import { useParams } from 'react-router-dom';
import { CreateCoursePage, EditCoursePage } from '../../features/courses/components/course-form-page.tsx';

/** /createcourse and /courses/edit/{id}: edit mode when the path carries an id (spec 001 section 2.2). */
export default function CourseFormRoute() {
  const { id } = useParams();
  return id ? <EditCoursePage key={id} id={id} /> : <CreateCoursePage />;
}
