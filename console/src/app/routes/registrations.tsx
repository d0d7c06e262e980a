import { RegistrationsPage } from '../../features/registrations/components/registrations-page.tsx';

export default function RegistrationsRoute() {
  return <RegistrationsPage />;
}
