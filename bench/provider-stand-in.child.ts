/**
 * The providers benchmark's provider stand-in, in a process of its own so that the arrival times it
 * notes are not held back by the benchmark's own work (the API callers, the polling), as a real
 * provider's are not: `GET /check?identifier=…` answers `{findings: []}` after the latency (argv[2], ms).
 * Sends `{port}` when listening; on `take` sends the arrivals since the last take.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const latencyMs = Number(process.argv[2] ?? 200);
let arrivals: { at: number; identifier: string }[] = [];
const server = http.createServer((request, response) => {
  const identifier = new URL(request.url ?? '/', 'http://127.0.0.1').searchParams.get('identifier') ?? '';
  arrivals.push({ at: performance.timeOrigin + performance.now(), identifier });
  setTimeout(() => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{"findings":[]}');
  }, latencyMs);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.send?.({ port: (server.address() as AddressInfo).port });
});
process.on('message', (message: { type: string }) => {
  if (message.type === 'take') {
    process.send?.({ arrivals });
    arrivals = [];
  } else if (message.type === 'close') {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  }
});
