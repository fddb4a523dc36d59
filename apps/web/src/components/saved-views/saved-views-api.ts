import {
  type CreateSavedViewBody,
  type SavedView,
  type SavedViewList,
  type SavedViewsResponse,
  savedViewEndpoints,
  type UpdateSavedViewBody,
} from '@pledgewatch/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { type MutationConfig, useInvalidatingMutation } from '@/lib/react-query';

// The three lists (objects, events, the pledge registry) share these calls with the menu, so the
// shared component owns them rather than each feature.

export const getSavedViews = (list: SavedViewList): Promise<SavedViewsResponse> =>
  callEndpoint(savedViewEndpoints.list, { query: { list } });

export const savedViewsQueryOptions = (list: SavedViewList) =>
  queryOptions({ queryKey: queryKeys.savedViews.list(list), queryFn: () => getSavedViews(list) });

export const useSavedViews = (list: SavedViewList) => useQuery(savedViewsQueryOptions(list));

export const createSavedView = (body: CreateSavedViewBody): Promise<SavedView> =>
  callEndpoint(savedViewEndpoints.create, { body });

export const updateSavedView = ({ id, ...body }: UpdateSavedViewBody & { id: string }): Promise<SavedView> =>
  callEndpoint(savedViewEndpoints.update, { params: { id }, body });

export const deleteSavedView = (id: string): Promise<SavedView> =>
  callEndpoint(savedViewEndpoints.remove, { params: { id } });

/** Any change re-reads the menus (a new default takes the mark off another view). */
const useViewsMutation = <Input>(
  mutationFn: (input: Input) => Promise<SavedView>,
  config?: MutationConfig<typeof mutationFn>,
) => useInvalidatingMutation(mutationFn, queryKeys.savedViews.all, config);

export const useCreateSavedView = (config?: MutationConfig<typeof createSavedView>) =>
  useViewsMutation(createSavedView, config);
export const useUpdateSavedView = (config?: MutationConfig<typeof updateSavedView>) =>
  useViewsMutation(updateSavedView, config);
export const useDeleteSavedView = (config?: MutationConfig<typeof deleteSavedView>) =>
  useViewsMutation(deleteSavedView, config);
