import { PlaceholderPage } from '@/components/ui/placeholder-page';
import { texts } from '@/config/texts';

export default function DashboardPage() {
  return <PlaceholderPage title={texts.pages.home.title} description={texts.pages.home.description} />;
}
