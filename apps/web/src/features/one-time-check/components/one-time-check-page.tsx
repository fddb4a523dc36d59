import { PlaceholderPage } from '@/components/ui/placeholder-page';
import { texts } from '@/config/texts';

export default function OneTimeCheckPage() {
  return (
    <PlaceholderPage
      title={texts.pages.oneTimeCheck.title}
      description={texts.pages.oneTimeCheck.description}
    />
  );
}
