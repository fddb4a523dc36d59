import { TabbedSection } from '@/components/ui/tabbed-section';
import { paths } from '@/config/paths';
import { texts } from '@/features/monitoring-upload/texts';

export default function UploadLayout() {
  return (
    <TabbedSection
      title={texts.pages.upload.title}
      tabs={[
        { label: texts.pages.upload.tabForm, path: paths.monitoringUploadForm.path },
        { label: texts.pages.upload.tabTable, path: paths.monitoringUploadTable.path },
      ]}
    />
  );
}
