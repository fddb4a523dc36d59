import { PlaceholderPage } from '@/components/ui/placeholder-page';
import { texts } from '@/config/texts';

export default function NotificationsPage() {
  return (
    <PlaceholderPage
      title={texts.pages.notifications.title}
      description={texts.pages.notifications.description}
    />
  );
}
