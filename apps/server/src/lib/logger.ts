import type { FastifyBaseLogger } from 'fastify';
import pino, { type DestinationStream } from 'pino';
import pretty from 'pino-pretty';

/**
 * The log of the app and the workers. In a terminal, readable lines (time, level, message, then the
 * fields); anywhere else (a service manager, a container, a pipe) one JSON object per line, for log
 * collectors. The pretty printer runs in this process and writes synchronously, so nothing is lost
 * when the process exits right after a line (a transport's worker thread could drop it).
 */
export function logDestination(tty = Boolean(process.stdout.isTTY)): DestinationStream | undefined {
  if (!tty) {
    return undefined;
  }
  return pretty({
    colorize: true,
    sync: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    singleLine: false,
  });
}

export function createLogger(level: string, destination = logDestination()): FastifyBaseLogger {
  const options = { level };
  return (destination ? pino(options, destination) : pino(options)) as unknown as FastifyBaseLogger;
}
