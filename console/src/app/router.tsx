import { type ComponentType, type ReactNode, lazy } from 'react';
import { Navigate, createBrowserRouter, useParams } from 'react-router-dom';
import type { Role } from '@portal/contracts/accounts/account.events';
import { AppLayout } from '../components/layouts/app-layout.tsx';
import { NotificationBadge } from '../features/notifications/components/notification-badge.tsx';
import { NotFound } from '../components/status-views.tsx';
import { RequireRole } from './require-role.tsx';
import { restOfWords } from '../lib/i18n.ts';

/** A page other than sign-in's: its code and the rest of the words, both before it renders. */
const page = <Props,>(load: () => Promise<{ default: ComponentType<Props> }>) =>
  lazy(() => Promise.all([load(), restOfWords()]).then(([module]) => module));

const Login = lazy(() => import('./routes/login.tsx'));
const Register = page(() => import('./routes/register.tsx'));
const RegisterPartner = page(() => import('./routes/register-partner.tsx'));
const Legal = page(() => import('./routes/legal.tsx'));
const Settings = page(() => import('./routes/settings.tsx'));
const AddEmployee = page(() => import('./routes/add-employee.tsx'));
const Registrations = page(() => import('./routes/registrations.tsx'));
const Courses = page(() => import('./routes/courses.tsx'));
const CourseDetails = page(() => import('./routes/course-details.tsx'));
const CourseFormRoute = page(() => import('./routes/course-form.tsx'));
const EMarket = page(() => import('./routes/e-market.tsx'));
const Round = page(() => import('./routes/round.tsx'));
const Report = page(() => import('./routes/report.tsx'));
const Audit = page(() => import('./routes/audit.tsx'));
const AdminHome = page(() => import('./routes/admin-home.tsx'));
const PartnerHome = page(() => import('./routes/partner-home.tsx'));
const MemberHistory = page(() => import('./routes/member-history.tsx'));
const About = page(() => import('./routes/about.tsx'));
const Contact = page(() => import('./routes/contact.tsx'));
const HelpCenter = page(() => import('./routes/help-center.tsx'));
const SendEmail = page(() => import('./routes/send-email.tsx'));
const Inbox = page(() => import('./routes/inbox.tsx'));
const Camera = page(() => import('./routes/camera.tsx'));
const CheckIn = page(() => import('./routes/check-in.tsx'));
const SetPassword = page(() => import('./routes/set-password.tsx'));
const Verify = page(() => import('./routes/verify.tsx'));
const Imports = page(() => import('./routes/imports.tsx'));
const Notifications = page(() => import('./routes/notifications.tsx'));

const staff: Role[] = ['admin', 'partner'];
const anyone: Role[] = ['admin', 'partner', 'member'];

function guarded(roles: readonly Role[], view: ReactNode) {
  return <RequireRole roles={roles}>{view}</RequireRole>;
}

/** The old product's course form sends people to /admin/courses[/{id}]; they land on our pages. */
function OldCourseLink() {
  const { id } = useParams();
  return <Navigate replace to={id ? `/courses/${id}` : '/courses'} />;
}

/** Every path of the route table (spec 000 section 2, spec 001 section 1). */
export const router = createBrowserRouter([
  {
    element: <AppLayout notifications={<NotificationBadge />} />,
    children: [
      { path: '/', element: <Login /> },
      { path: '/login', element: <Login /> },
      { path: '/register', element: <Register /> },
      { path: '/registeradmin', element: <RegisterPartner /> },
      { path: '/about', element: <About /> },
      { path: '/contact', element: <Contact /> },
      { path: '/helpcenter', element: <HelpCenter /> },
      { path: '/policy', element: <Legal text="privacy" /> },
      { path: '/terms', element: <Legal text="terms" /> },
      { path: '/cookie', element: <Legal text="cookie" /> },
      // From the link in an e-mail: no session yet.
      { path: '/set-password', element: <SetPassword /> },
      { path: '/verify/:id', element: <Verify /> },
      {
        path: '/setting',
        element: (
          <RequireRole roles={anyone}>
            <Settings />
          </RequireRole>
        ),
      },
      { path: '/courses', element: guarded(staff, <Courses />) },
      { path: '/courses/:id', element: guarded(staff, <CourseDetails />) },
      // Members too: a course's scan-only assistants (the server decides who may open it).
      { path: '/courses/:courseId/rounds/:roundId', element: guarded(anyone, <Round />) },
      { path: '/courses/edit/:id', element: guarded(staff, <CourseFormRoute />) },
      // Members checking themselves in on a round's room code (issue 23).
      { path: '/check-in', element: guarded(['member'], <CheckIn />) },
      { path: '/check-in/:roundId', element: guarded(['member'], <CheckIn />) },
      { path: '/createcourse', element: guarded(staff, <CourseFormRoute />) },
      { path: '/admin/courses', element: <OldCourseLink /> },
      { path: '/admin/courses/:id', element: <OldCourseLink /> },
      // Spec 001 gives it to admins and partners; members get their own notifications too.
      { path: '/notification', element: guarded(anyone, <Notifications />) },
      // Sending is for staff: the server refuses members too.
      { path: '/sendemail', element: guarded(staff, <SendEmail />) },
      { path: '/inbox', element: guarded(['admin'], <Inbox />) },
      { path: '/imports', element: guarded(['admin'], <Imports />) },
      { path: '/partner', element: guarded(['partner'], <PartnerHome />) },
      { path: '/admin', element: guarded(['admin'], <AdminHome />) },
      { path: '/members/:id', element: guarded(['admin'], <MemberHistory />) },
      { path: '/e-market', element: guarded(anyone, <EMarket />) },
      // The route tells other roles, in the spec's words for this page (section 2.5).
      { path: '/report', element: <Report /> },
      { path: '/audit', element: guarded(['admin'], <Audit />) },
      {
        path: '/registrations',
        element: (
          <RequireRole roles={['admin']}>
            <Registrations />
          </RequireRole>
        ),
      },
      {
        path: '/addemployee',
        element: (
          <RequireRole roles={['admin']}>
            <AddEmployee />
          </RequireRole>
        ),
      },
      // Spec 001 section 6: the camera page has no role check.
      { path: '/camera', element: <Camera /> },
      { path: '*', element: <NotFound /> },
    ],
  },
]);
