import { CalendarCard } from '../../features/calendar/components/calendar-card.tsx';
import { SettingsPage } from '../../features/settings/components/settings-page.tsx';

export default function SettingsRoute() {
  return <SettingsPage more={<CalendarCard />} />;
}
