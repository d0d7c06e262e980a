import { PartnerRegistrationForm } from '../../features/registration/components/partner-registration-form.tsx';

export default function RegisterPartnerRoute() {
  return <PartnerRegistrationForm />;
}
