import { useParams } from 'react-router-dom';
import { CourseAssistants } from '../../features/assistants/components/course-assistants.tsx';
import { CountsAsOf } from '../../features/audit/components/counts-as-of.tsx';
import { CourseCertificates } from '../../features/certificates/components/course-certificates.tsx';
import { CourseDetailsPage } from '../../features/courses/components/course-details-page.tsx';
import { useSession } from '../../lib/session.tsx';

/** A course's page, with its certificates and assistants (for who manages it) and the counts as of a moment (admins). */
export default function CourseDetailsRoute() {
  const { id } = useParams();
  const { user } = useSession();
  return (
    <CourseDetailsPage
      key={id}
      id={id}
      below={(course) => (
        <>
          {course.canManage && <CourseCertificates courseId={course.id} />}
          {course.canManage && <CourseAssistants courseId={course.id} />}
          {user?.role === 'admin' && <CountsAsOf courseId={course.id} />}
        </>
      )}
    />
  );
}
