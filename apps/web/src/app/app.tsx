import { AppProvider } from './provider';
import { AppRouter } from './router';

export function App() {
  return <AppProvider>{(queryClient) => <AppRouter queryClient={queryClient} />}</AppProvider>;
}
