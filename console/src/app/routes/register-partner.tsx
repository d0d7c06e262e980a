import { PartnerRegistrationForm } from '../../features/sign-up/components/partner-registration-form.tsx';

export default function RegisterPartnerRoute() {
  return <PartnerRegistrationForm />;
}
