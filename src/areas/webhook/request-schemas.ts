import { errorResponses, pageQuerySchema } from '../../http/schemas.js';
import { binIdParams } from './bin-schemas.js';
import { requestDetailSchema, requestSummarySchema } from './wire.js';

/** Schemas of the captured-request endpoints of a bin and its live stream (CONTRACT §2.3). */

const EXAMPLE_SUMMARY = {
  request_id: 'req_00000CQK7hJ2kLm9Np0Qr3StUvWx',
  bin_id: 'bin_4fQ9xT2mZk8Lr0aBcDeFgH',
  method: 'POST',
  path: '/v1/catch/bin_4fQ9xT2mZk8Lr0aBcDeFgH/stripe',
  query_string: 'attempt=1',
  content_type: 'application/json',
  content_length: 17,
  source_ip: '203.0.113.7',
  timestamp: '2026-11-21T10:15:30.123Z',
};

export const requestParams = {
  type: 'object',
  required: ['bin_id', 'request_id'],
  properties: { bin_id: { type: 'string' }, request_id: { type: 'string' } },
} as const;

export const listRequestsSchema = {
  operationId: 'listRequests',
  summary: 'List captured requests, newest first',
  description:
    "`total` counts the requests the bin still retains (at most BIN_MAX_REQUESTS), while the bin's `request_count` " +
    'counts every capture since creation. Equal timestamps are ordered by capture order. `limit` 1..200 (default 50), ' +
    '`offset` >= 0; anything else, non-integers included, is 422.',
  params: binIdParams,
  querystring: { ...pageQuerySchema, examples: [{ limit: 50, offset: 0 }] },
  response: {
    200: {
      type: 'object',
      required: ['total', 'requests'],
      properties: { total: { type: 'integer' }, requests: { type: 'array', items: requestSummarySchema } },
      examples: [{ total: 1, requests: [EXAMPLE_SUMMARY] }],
    },
    ...errorResponses('not_found'),
  },
};

export const readRequestSchema = {
  operationId: 'getRequest',
  summary: 'Read one captured request in full',
  description:
    '`body` is the UTF-8 text of the body, or its base64 when the bytes are not valid UTF-8 (`body_encoding` says ' +
    'which). `content_length` is the byte count; `content_type` is `""` when the request had none.',
  params: requestParams,
  response: {
    200: {
      type: 'object',
      required: ['request'],
      properties: { request: requestDetailSchema },
      examples: [
        {
          request: {
            ...EXAMPLE_SUMMARY,
            headers: { 'content-type': 'application/json', 'user-agent': 'Stripe/1.0' },
            body: '{"event":"paid"}\n',
            body_encoding: 'utf8',
          },
        },
      ],
    },
    ...errorResponses('not_found'),
  },
};

export const clearRequestsSchema = {
  operationId: 'clearRequests',
  summary: 'Delete every captured request of a bin (the bin stays)',
  description: 'The bin keeps its `request_count`; the list is empty afterwards. `deleted` is how many were removed.',
  params: binIdParams,
  response: {
    200: {
      type: 'object',
      required: ['message', 'bin_id', 'deleted'],
      properties: { message: { type: 'string' }, bin_id: { type: 'string' }, deleted: { type: 'integer' } },
      examples: [{ message: 'requests cleared', bin_id: 'bin_4fQ9xT2mZk8Lr0aBcDeFgH', deleted: 12 }],
    },
    ...errorResponses('not_found'),
  },
};

export const streamSchema = {
  operationId: 'streamRequests',
  summary: 'Live stream of captures (Server-Sent Events)',
  description:
    'Answers `text/event-stream`. Each capture arrives as one `request` event whose `id` is its request id and whose ' +
    '`data` is the request summary (the list item) as JSON, in capture order, across every server instance sharing the ' +
    'store. A `: heartbeat` comment is sent every 15 s. The stream ends when the bin is deleted or expires and when the ' +
    'server shuts down, after an `end` event whose data is `{"reason": "bin_deleted" | "bin_expired" | ' +
    '"server_shutdown"}`. Needs the key that owns the bin.\n\n' +
    'Resume: a client that connects with `Last-Event-ID: <request_id>` (as `EventSource` does after a drop), or with ' +
    'the query parameter `last_event_id` when it cannot set headers, first gets every capture the bin still retains ' +
    'that came after that request, in capture order, then the live ones: none twice, none left out while retained. ' +
    'This holds when the request itself has been evicted or cleared meanwhile (all retained captures came after it), ' +
    'and whichever instance the client reconnects to. The header wins over the query parameter; an empty value is no ' +
    'id. An id that is not one of the bin\'s gets an `event: reset` with data `{"reason": "unknown_event_id"}` ' +
    'first, then live events only. A request id carries its number in its bin, so an evicted one is placed by that ' +
    "number, and a tag of its random part in its bin, so that another bin's id is told apart (ids given before they " +
    'carried the tag are placed by their number alone).',
  params: binIdParams,
  querystring: {
    type: 'object',
    properties: {
      last_event_id: {
        type: 'string',
        description: 'The request id of the last event received, for clients that cannot send `Last-Event-ID`.',
        examples: ['req_00000CQK7hJ2kLm9Np0Qr3StUvWx'],
      },
    },
  },
  headers: {
    type: 'object',
    properties: {
      'last-event-id': {
        type: 'string',
        description: 'The request id of the last event received (Server-Sent Events reconnection).',
        examples: ['req_00000CQK7hJ2kLm9Np0Qr3StUvWx'],
      },
    },
  },
  response: {
    200: {
      description: 'An open event stream.',
      content: {
        'text/event-stream': {
          schema: {
            type: 'string',
            examples: [
              'id: req_00000CQK7hJ2kLm9Np0Qr3StUvWx\nevent: request\ndata: {"request_id":"req_00000CQK7hJ2kLm9Np0Qr3StUvWx"}\n\n',
              'event: reset\ndata: {"reason":"unknown_event_id"}\n\n',
            ],
          },
        },
      },
    },
    ...errorResponses('not_found'),
  },
};
