import { TabbedSection } from '@/components/ui/tabbed-section';
import { paths } from '@/config/paths';
import { texts } from '@/features/pledge-upload-events/texts';

export default function UploadEventsLayout() {
  return (
    <TabbedSection
      title={texts.pages.pledgesUploadEvents.title}
      tabs={[
        { label: texts.pages.pledgesUploadEvents.tabForm, path: paths.pledgesUploadEventsForm.path },
        { label: texts.pages.pledgesUploadEvents.tabTable, path: paths.pledgesUploadEventsTable.path },
      ]}
    />
  );
}
