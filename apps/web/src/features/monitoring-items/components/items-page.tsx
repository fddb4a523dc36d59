import { PlaceholderPage } from '@/components/ui/placeholder-page';
import { texts } from '@/config/texts';

export default function ItemsPage() {
  return <PlaceholderPage title={texts.pages.items.title} description={texts.pages.items.description} />;
}
