import { MemberRegistrationForm } from '../../features/sign-up/components/member-registration-form.tsx';

export default function RegisterRoute() {
  return <MemberRegistrationForm />;
}
