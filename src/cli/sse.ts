/** One Server-Sent Event (https://html.spec.whatwg.org/multipage/server-sent-events.html). */
export interface SseEvent {
  /** `message` when the event named none. */
  event: string;
  data: string;
  /** The event's own `id:` line, when it had one. */
  id?: string;
  /** A `retry:` value the event carried, in milliseconds. */
  retry?: number;
}

/**
 * Parse one event block (the lines between blank lines); undefined for a block of comments only.
 *
 * @example
 *   parseEventBlock('id: req_1\nevent: request\ndata: {}') // { event: 'request', data: '{}', id: 'req_1' }
 */
export function parseEventBlock(block: string): SseEvent | undefined {
  const event: SseEvent = { event: 'message', data: '' };
  const data: string[] = [];
  let meaningful = false;
  for (const line of block.split(/\r\n|\r|\n/)) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event.event = value;
    else if (field === 'id' && !value.includes('\0')) event.id = value;
    else if (field === 'retry' && /^\d+$/.test(value)) event.retry = Number(value);
    else continue;
    meaningful = true;
  }
  if (!meaningful) return undefined;
  event.data = data.join('\n');
  return event;
}

/**
 * The events of a response body, in order, as they arrive; `onBytes` hears every chunk (a
 * heartbeat comment included), for an idle watchdog.
 *
 * @example
 *   for await (const event of readEvents(res.body!)) if (event.event === 'request') handle(event);
 */
export async function* readEvents(body: AsyncIterable<Uint8Array>, onBytes: () => void = () => undefined): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body) {
    onBytes();
    buffer += decoder.decode(chunk, { stream: true });
    for (let end = blockEnd(buffer); end !== null; end = blockEnd(buffer)) {
      const event = parseEventBlock(buffer.slice(0, end.index));
      buffer = buffer.slice(end.index + end.length);
      if (event) yield event;
    }
  }
}

/** Where the first blank line (the end of an event) is, whatever the line endings. */
function blockEnd(buffer: string): { index: number; length: number } | null {
  const match = /\r\n\r\n|\n\n|\r\r/.exec(buffer);
  return match ? { index: match.index, length: match[0].length } : null;
}
