/**
 * Milliseconds spent per named phase, summed over calls. Nothing is recorded unless a caller passes a
 * sink in (the checks benchmark does, through buildApp), so no module keeps global timing state.
 */
export type PhaseTimings = Record<string, number>;

export function addPhaseTime(sink: PhaseTimings | undefined, phase: string, ms: number): void {
  if (sink) {
    sink[phase] = (sink[phase] ?? 0) + ms;
  }
}

/** A `timed(phase, work)` that adds the work's duration to the sink, if there is one. */
export function phaseTimer(sink: PhaseTimings | undefined) {
  return async <T>(phase: string, work: () => Promise<T>): Promise<T> => {
    if (!sink) {
      return work();
    }
    const started = performance.now();
    try {
      return await work();
    } finally {
      addPhaseTime(sink, phase, performance.now() - started);
    }
  };
}
