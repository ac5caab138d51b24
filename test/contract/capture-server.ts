/**
 * A tiny loopback HTTP server for contract tests: it records every raw request (method, request target,
 * headers, body) and answers with canned replies, so a test can see exactly what the client put on the
 * wire and feed it any response shape, status or header.
 */
import http from 'node:http'
import type { Socket } from 'node:net'

export interface CapturedRequest {
  method: string
  /** The raw request target: path plus `?query` when there is one. */
  target: string
  path: string
  /** Everything after `?`, '' when none. */
  search: string
  query: Record<string, string>
  headers: http.IncomingHttpHeaders
  /** Raw body text ('' when none). */
  body: string
  /** The body parsed as JSON, or undefined when empty or not JSON. */
  json: unknown
  /** The client closed the connection before the answer went out (it gave up, or was cancelled). */
  abandoned: boolean
}

export interface CannedReply {
  status?: number
  headers?: Record<string, string>
  /** A string goes out as is (text/plain unless headers say otherwise); anything else as JSON. */
  body?: unknown
  /** Destroy the connection instead of answering (after reading the request). */
  destroy?: boolean
  /** Hold the answer this long. */
  delayMs?: number
}

export type Responder = (request: CapturedRequest, index: number) => CannedReply

export interface CaptureServer {
  url: string
  port: number
  requests: CapturedRequest[]
  /** A function, or a queue of replies used in order (a request past the end gets a 599). */
  respond(responder: Responder | CannedReply[]): void
  close(): Promise<void>
}

export const json = (body: unknown, status = 200, headers: Record<string, string> = {}): CannedReply => ({
  status,
  body,
  headers
})

export async function startCaptureServer(responder: Responder | CannedReply[] = []): Promise<CaptureServer> {
  const requests: CapturedRequest[] = []
  const sockets = new Set<Socket>()
  const timers = new Set<ReturnType<typeof setTimeout>>()
  let answer: Responder = toResponder(responder)

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.once('end', () => {
      const target = req.url ?? '/'
      const url = new URL(target, 'http://127.0.0.1')
      const body = Buffer.concat(chunks).toString('utf8')
      let parsed: unknown
      try {
        parsed = body === '' ? undefined : JSON.parse(body)
      } catch {
        parsed = undefined
      }
      const request: CapturedRequest = {
        method: req.method ?? 'GET',
        target,
        path: url.pathname,
        search: url.search.replace(/^\?/, ''),
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        body,
        json: parsed,
        abandoned: false
      }
      res.once('close', () => {
        if (!res.writableEnded) request.abandoned = true
      })
      requests.push(request)
      const reply = answer(request, requests.length - 1)
      const send = () => {
        if (reply.destroy) {
          req.socket.destroy()
          return
        }
        const text =
          reply.body === undefined
            ? ''
            : typeof reply.body === 'string'
              ? reply.body
              : JSON.stringify(reply.body)
        const type = typeof reply.body === 'string' ? 'text/plain; charset=utf-8' : 'application/json'
        res.writeHead(reply.status ?? 200, {
          'Content-Type': type,
          ...reply.headers,
          'Content-Length': String(Buffer.byteLength(text))
        })
        res.end(text)
      }
      if (reply.delayMs) {
        const timer = setTimeout(() => {
          timers.delete(timer)
          send()
        }, reply.delayMs)
        timers.add(timer)
      } else send()
    })
  })
  server.on('connection', socket => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as { port: number }).port
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    respond(next) {
      answer = toResponder(next)
    },
    async close() {
      for (const timer of timers) clearTimeout(timer)
      const closed = new Promise<void>(resolve => server.close(() => resolve()))
      for (const socket of sockets) socket.destroy()
      await closed
    }
  }
}

function toResponder(responder: Responder | CannedReply[]): Responder {
  if (typeof responder === 'function') return responder
  const queue = [...responder]
  return () => queue.shift() ?? { status: 599, body: 'capture server: no reply queued' }
}
