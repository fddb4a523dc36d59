import { EmptyState } from '@/components/ui/empty-state';
import { texts } from '@/config/texts';

export default function PackagesPage() {
  return <EmptyState description={texts.pages.pledgesEventsRegistry.packagesDescription} />;
}
