import { useLocation } from 'react-router';
import { ErrorPage } from '@/components/errors/error-page';
import { texts } from '@/config/texts';

/** Unmatched paths: a non-fatal page; the app keeps working from the link back home. */
export default function NotFoundRoute() {
  const { pathname } = useLocation();
  return (
    <ErrorPage
      status={404}
      title={texts.errors.notFoundTitle}
      message={texts.errors.notFoundMessage(pathname)}
      subtitle={texts.errors.notFoundSubtitle}
    />
  );
}
