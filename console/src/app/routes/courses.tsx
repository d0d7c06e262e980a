import { CourseListPage } from '../../features/courses/components/course-list-page.tsx';

export default function CoursesRoute() {
  return <CourseListPage />;
}
