// A UDP DNS server on 127.0.0.1 for the benchmarks, so a service under test never asks the
// machine's resolver: it answers a fixed zone, NXDOMAIN for names outside it.
import { createSocket } from 'node:dgram';
import { createRequire } from 'node:module';

// dns-packet is a dev dependency of the project root.
const packet = createRequire(new URL('../package.json', import.meta.url))('dns-packet');

/**
 * Serve `zone` ({ name: [{ type, ttl, data }] }, names in lower case). Returns the `host:port` to
 * put in DNS_SERVERS, how many queries it has answered so far, and `close()`. The socket does not
 * keep the process alive.
 */
export async function startDnsServer(zone) {
  let queries = 0;
  const socket = createSocket('udp4');
  socket.on('message', (msg, peer) => {
    queries += 1;
    const query = packet.decode(msg);
    const q = query.questions[0];
    const records = zone[q.name.toLowerCase()];
    const answers = (records ?? []).filter((r) => r.type === q.type).map((r) => ({ name: q.name, ...r }));
    const flags = packet.AUTHORITATIVE_ANSWER | (records ? 0 : 3);
    socket.send(packet.encode({ type: 'response', id: query.id, flags, questions: [q], answers }), peer.port, peer.address);
  });
  await new Promise((resolve) => socket.bind(0, '127.0.0.1', resolve));
  socket.unref();
  return { address: `127.0.0.1:${socket.address().port}`, queries: () => queries, close: () => socket.close() };
}

/** The zone of the cached-lookup cases: bench.test A 192.0.2.10, TTL one hour. */
export const BENCH_ZONE = { 'bench.test': [{ type: 'A', ttl: 3600, data: '192.0.2.10' }] };
