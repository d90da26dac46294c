import { get } from 'node:http';

/**
 * Read a bin's live stream until `count` `request` events arrived: `ready` once the stream
 * answers, `events` their request ids in arrival order (the stream is then closed).
 *
 * @example
 *   const stream = collectEvents(`${base}/v1/bins/${binId}/stream`, key, 3);
 *   await stream.ready; // … capture three requests …
 *   await stream.events; // ['req_…', 'req_…', 'req_…']
 */
export function collectEvents(
  url: string,
  key: string,
  count: number,
  limitMs = 30_000,
): { ready: Promise<void>; events: Promise<string[]> } {
  let markReady!: () => void;
  const ready = new Promise<void>((r) => (markReady = r));
  const events = new Promise<string[]>((resolve, reject) => {
    const req = get(url, { headers: { 'x-api-key': key } }, (res) => {
      let buffer = '';
      const ids: string[] = [];
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        markReady();
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const data = /^event: request\ndata: (.*)$/m.exec(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
          if (data) ids.push(JSON.parse(data[1]!).request_id);
          if (ids.length === count) {
            req.destroy();
            resolve(ids);
          }
        }
      });
    });
    req.on('error', (err) => (err.message.includes('aborted') ? undefined : reject(err)));
    setTimeout(() => reject(new Error('stream timed out')), limitMs).unref();
  });
  return { ready, events };
}
