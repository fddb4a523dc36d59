import { PlaceholderPage } from '@/components/ui/placeholder-page';
import { texts } from '@/config/texts';

export default function CheckHistoryPage() {
  return (
    <PlaceholderPage
      title={texts.pages.oneTimeCheckTable.title}
      description={texts.pages.oneTimeCheckTable.description}
    />
  );
}
