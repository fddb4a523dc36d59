import { EmptyState } from '@/components/ui/empty-state';
import { texts } from '@/config/texts';

export default function EventsTablePage() {
  return <EmptyState description={texts.pages.pledgesEventsRegistry.tableDescription} />;
}
