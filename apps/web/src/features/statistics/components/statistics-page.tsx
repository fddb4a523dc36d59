import { PlaceholderPage } from '@/components/ui/placeholder-page';
import { texts } from '@/config/texts';

export default function StatisticsPage() {
  return (
    <PlaceholderPage title={texts.pages.statistics.title} description={texts.pages.statistics.description} />
  );
}
