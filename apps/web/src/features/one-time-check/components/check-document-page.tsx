import { useParams } from 'react-router';
import { PlaceholderPage } from '@/components/ui/placeholder-page';
import { texts } from '@/config/texts';

export default function CheckDocumentPage() {
  const { id = '' } = useParams();
  return (
    <PlaceholderPage
      title={texts.pages.oneTimeCheckDocument.title(id)}
      description={texts.pages.oneTimeCheckDocument.description}
    />
  );
}
