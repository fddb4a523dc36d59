/** The part of autocannon's programmatic API the load bench uses (the package ships no types). */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  export interface AutocannonRequest {
    method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
    path: string;
    headers?: Record<string, string>;
    body?: string;
    /** Called with each answer to this request, before the instance's 'response' event. */
    onResponse?: (status: number, body: string) => void;
  }

  export interface AutocannonOptions {
    url: string;
    connections?: number;
    /** Requests per second over all connections (a connection sends at most its share each second). */
    overallRate?: number;
    /** Seconds. */
    duration?: number;
    /** Seconds before a request counts as timed out. */
    timeout?: number;
    headers?: Record<string, string>;
    requests?: AutocannonRequest[];
  }

  export interface AutocannonResult {
    requests: { total: number };
    errors: number;
    timeouts: number;
    non2xx: number;
  }

  export interface AutocannonInstance extends EventEmitter, PromiseLike<AutocannonResult> {
    stop(): void;
  }

  export default function autocannon(options: AutocannonOptions): AutocannonInstance;
}
