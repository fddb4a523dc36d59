import { createContext, useContext } from 'react';

type PreloadRoute = (path: string) => void;

/** The router provides the real preloader; components only know they can ask for one. */
export const RoutePreloadContext = createContext<PreloadRoute>(() => {});

export const usePreloadRoute = (): PreloadRoute => useContext(RoutePreloadContext);
