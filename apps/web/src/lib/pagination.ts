import { useCallback, useState } from 'react';
import { DEFAULT_PAGE_SIZE, PAGE_SIZE_OPTIONS } from '@/config/constants';

/** Page (from 1, as the API counts) and page size of a server-paged table kept in component state. */
export function usePagination(initialPageSize = DEFAULT_PAGE_SIZE) {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(initialPageSize);
  const onChange = useCallback((nextPage: number, nextPageSize: number) => {
    setPage(nextPage);
    setPageSize(nextPageSize);
  }, []);
  return { page, pageSize, setPage, onChange };
}

/**
 * Page and page size read from search params: a page is a whole number from 1, a size one of
 * PAGE_SIZE_OPTIONS; anything else falls back to the first page of the default size.
 */
export function parsePagination(
  params: URLSearchParams,
  keys: { page: string; pageSize: string } = { page: 'page', pageSize: 'pageSize' },
): { page: number; pageSize: number } {
  const page = Number(params.get(keys.page));
  const pageSize = Number(params.get(keys.pageSize));
  return {
    page: Number.isInteger(page) && page > 0 ? page : 1,
    pageSize: PAGE_SIZE_OPTIONS.includes(pageSize) ? pageSize : DEFAULT_PAGE_SIZE,
  };
}
