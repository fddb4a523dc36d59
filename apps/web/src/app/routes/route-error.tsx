import { isRouteErrorResponse, useLocation, useRouteError } from 'react-router';
import { ErrorPage } from '@/components/errors/error-page';
import { texts } from '@/config/texts-signed-out';
import { isApiError } from '@/lib/api-client';

function statusOf(error: unknown): number {
  if (isRouteErrorResponse(error)) {
    return error.status;
  }
  if (isApiError(error) && error.status >= 400) {
    return error.status;
  }
  return 500;
}

/** Anything a route throws: 404s get the not-found page, everything else the 500 page. */
export function RouteError() {
  const error = useRouteError();
  const { pathname } = useLocation();
  const status = statusOf(error);

  if (status === 404 && isRouteErrorResponse(error)) {
    return (
      <ErrorPage
        status={404}
        title={texts.errors.notFoundTitle}
        message={texts.errors.notFoundMessage(pathname)}
        subtitle={texts.errors.notFoundSubtitle}
      />
    );
  }
  return (
    <ErrorPage
      status={status}
      title={texts.errors.serverErrorTitle}
      message={isApiError(error) ? error.message : undefined}
      subtitle={texts.errors.serverErrorSubtitle}
      showReload
    />
  );
}
