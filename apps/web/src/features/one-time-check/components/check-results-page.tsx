import { PlaceholderPage } from '@/components/ui/placeholder-page';
import { texts } from '@/config/texts';

export default function CheckResultsPage() {
  return (
    <PlaceholderPage
      title={texts.pages.oneTimeCheckResults.title}
      description={texts.pages.oneTimeCheckResults.description}
    />
  );
}
