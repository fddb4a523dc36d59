import { PlaceholderPage } from '@/components/ui/placeholder-page';
import { texts } from '@/config/texts';

export default function ReportPage() {
  return <PlaceholderPage title={texts.pages.report.title} description={texts.pages.report.description} />;
}
