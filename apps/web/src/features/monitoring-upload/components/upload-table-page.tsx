import { EmptyState } from '@/components/ui/empty-state';
import { texts } from '@/config/texts';

export default function UploadTablePage() {
  return <EmptyState description={texts.pages.upload.tableDescription} />;
}
