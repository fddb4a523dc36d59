import Box from '@mui/material/Box';
import { useEffect, useRef, useState } from 'react';
import { LOADING_BAR } from '@/config/constants';

type Phase = 'hidden' | 'running' | 'finishing' | 'fading';

type LoadingBarProps = {
  active: boolean;
  throttleMs?: number;
  durationMs?: number;
  hideDelayMs?: number;
  resetDelayMs?: number;
};

/**
 * A thin top bar. Loads shorter than `throttleMs` never show it; a visible bar creeps to 90% over
 * `durationMs`, jumps to 100% when done, fades after `hideDelayMs` and resets after `resetDelayMs`.
 */
export function LoadingBar({
  active,
  throttleMs = LOADING_BAR.throttleMs,
  durationMs = LOADING_BAR.durationMs,
  hideDelayMs = LOADING_BAR.hideDelayMs,
  resetDelayMs = LOADING_BAR.resetDelayMs,
}: LoadingBarProps) {
  const [phase, setPhase] = useState<Phase>('hidden');
  const [width, setWidth] = useState(0);
  const timers = useRef<number[]>([]);
  const phaseRef = useRef<Phase>('hidden');
  phaseRef.current = phase;

  useEffect(() => {
    const clearTimers = () => {
      for (const timer of timers.current) {
        window.clearTimeout(timer);
      }
      timers.current = [];
    };
    const later = (fn: () => void, ms: number) => {
      timers.current.push(window.setTimeout(fn, ms));
    };

    clearTimers();
    if (active) {
      later(
        () => {
          setPhase('running');
          setWidth(0);
          // Next frame so the width transition starts from 0.
          requestAnimationFrame(() => setWidth(90));
        },
        phaseRef.current === 'hidden' ? throttleMs : 0,
      );
    } else if (phaseRef.current !== 'hidden') {
      setPhase('finishing');
      setWidth(100);
      later(() => setPhase('fading'), hideDelayMs);
      later(() => {
        setPhase('hidden');
        setWidth(0);
      }, hideDelayMs + resetDelayMs);
    }
    return clearTimers;
  }, [active, throttleMs, hideDelayMs, resetDelayMs]);

  const transition =
    phase === 'running'
      ? `width ${durationMs}ms cubic-bezier(0.1, 0.7, 0.3, 1)`
      : phase === 'finishing'
        ? 'width 200ms ease-out'
        : `opacity ${resetDelayMs}ms ease`;

  return (
    <Box
      role="progressbar"
      aria-hidden={phase === 'hidden'}
      aria-busy={active}
      data-testid="loading-bar"
      sx={{
        position: 'fixed',
        top: 0,
        left: 0,
        height: 3,
        zIndex: (theme) => theme.zIndex.tooltip + 1,
        bgcolor: 'primary.main',
        width: `${width}%`,
        opacity: phase === 'hidden' || phase === 'fading' ? 0 : 1,
        transition,
        pointerEvents: 'none',
      }}
    />
  );
}
