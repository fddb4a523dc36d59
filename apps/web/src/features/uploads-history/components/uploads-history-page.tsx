import { PlaceholderPage } from '@/components/ui/placeholder-page';
import { texts } from '@/config/texts';

export default function UploadsHistoryPage() {
  return (
    <PlaceholderPage
      title={texts.pages.uploadsHistory.title}
      description={texts.pages.uploadsHistory.description}
    />
  );
}
