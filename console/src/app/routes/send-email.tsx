import { SendEmailPage } from '../../features/outreach/components/send-email-page.tsx';

export default function SendEmailPageRoute() {
  return <SendEmailPage />;
}
