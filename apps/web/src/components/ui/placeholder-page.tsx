import { EmptyState } from './empty-state';
import { Page } from './page';

/** The empty state of a screen whose content is delivered by later work. */
export function PlaceholderPage({ title, description }: { title: string; description: string }) {
  return (
    <Page title={title}>
      <EmptyState description={description} />
    </Page>
  );
}
