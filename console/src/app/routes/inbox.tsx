import { InboxPage } from '../../features/outreach/components/inbox-page.tsx';

export default function InboxPageRoute() {
  return <InboxPage />;
}
