import { TabbedSection } from '@/components/ui/tabbed-section';
import { paths } from '@/config/paths';
import { texts } from '@/features/pledge-events-registry/texts';

export default function EventsRegistryLayout() {
  return (
    <TabbedSection
      title={texts.pages.pledgesEventsRegistry.title}
      tabs={[
        { label: texts.pages.pledgesEventsRegistry.tabTable, path: paths.pledgesEventsRegistryTable.path },
        {
          label: texts.pages.pledgesEventsRegistry.tabPackages,
          path: paths.pledgesEventsRegistryPackages.path,
        },
      ]}
    />
  );
}
