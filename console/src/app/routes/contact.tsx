import { ContactPage } from '../../features/outreach/components/contact-page.tsx';

export default function ContactPageRoute() {
  return <ContactPage />;
}
