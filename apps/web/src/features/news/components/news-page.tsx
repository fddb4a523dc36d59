import { PlaceholderPage } from '@/components/ui/placeholder-page';
import { texts } from '@/config/texts';

export default function NewsPage() {
  return <PlaceholderPage title={texts.pages.news.title} description={texts.pages.news.description} />;
}
