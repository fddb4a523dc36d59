import { EmptyState } from '@/components/ui/empty-state';
import { texts } from '@/config/texts';

export default function UploadEventsTablePage() {
  return <EmptyState description={texts.pages.pledgesUploadEvents.tableDescription} />;
}
