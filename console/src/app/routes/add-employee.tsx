import { MemberRegistrationForm } from '../../features/registration/components/member-registration-form.tsx';

export default function AddEmployeeRoute() {
  return <MemberRegistrationForm kind="employee" />;
}
