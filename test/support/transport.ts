/**
 * The transport (src/api/transport.ts) against a loopback server that answers as each test scripts it, with
 * a clock whose sleeps only move its time: what the transport unit tests share.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { ApiError } from '../../src/api/errors.js'
import type { Clock } from '../../src/api/pacer.js'
import { Transport, type TransportOptions } from '../../src/api/transport.js'

export interface Seen {
  method: string
  url: string
  headers: IncomingMessage['headers']
  body: string
}
export type Answer = (res: ServerResponse) => void

export const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Answer =>
  res => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers })
    res.end(JSON.stringify(body))
  }
export const raw =
  (status: number, text: string, headers: Record<string, string> = {}): Answer =>
  res => {
    res.writeHead(status, headers)
    res.end(text)
  }
/** Never answers (the connection is closed when the test ends). */
export const hang: Answer = () => {}

export const servers: Server[] = []
const transports: Transport[] = []

/** For afterEach: closes the transports and servers the test made. */
export async function closeAll(): Promise<void> {
  await Promise.all(transports.splice(0).map(t => t.close()))
  await Promise.all(
    servers.splice(0).map(s => new Promise(resolve => s.close(resolve).closeAllConnections()))
  )
}

/** A server answering each request with the next scripted answer (the last one again once they run out). */
export async function serve(...answers: Answer[]) {
  const seen: Seen[] = []
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => (body += c.toString()))
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body })
      answers[Math.min(seen.length - 1, answers.length - 1)]!(res)
    })
  })
  servers.push(server)
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return { seen, server, port, baseUrl: `http://127.0.0.1:${port}/api/v2` }
}

/** A clock whose sleeps return at once and move its time on; it records every wait. */
export function fakeClock() {
  let now = 1_000_000
  const sleeps: number[] = []
  const clock: Clock = {
    now: () => now,
    sleep: async (ms, signal) => {
      signal?.throwIfAborted()
      sleeps.push(ms)
      now += ms
    }
  }
  return { clock, sleeps }
}

export function transport(baseUrl: string, over: Partial<TransportOptions> = {}) {
  const { clock, sleeps } = fakeClock()
  const t = new Transport({
    baseUrl,
    auth: { kind: 'bearer', apiKey: 'sekret-key-123' },
    mode: 'self-hosted',
    rateLimit: null,
    requestTimeoutMs: 30_000,
    retryBudgetMs: 5_000,
    clock,
    // Backoff without its random half: 125, 250, 500, 1000 ms...
    random: () => 0,
    ...over
  })
  transports.push(t)
  return { t, sleeps }
}

export const failure = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected the request to fail')
    },
    (e: unknown) => e as ApiError
  )

/** Lets I/O and timers of this process run until `done()` holds. */
export async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise(resolve => setImmediate(resolve))
}

/**
 * A clock whose sleeps last until the test releases them (time moves to each one's end then), or until
 * their signal aborts: a test can look at what waits, and on which signal, while it waits.
 */
export function gatedClock() {
  let now = 1_000_000
  const waits: { ms: number; signal?: AbortSignal; release(): void }[] = []
  const clock: Clock = {
    now: () => now,
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        signal?.throwIfAborted()
        const end = now + ms
        const aborted = () => reject(signal!.reason as Error)
        signal?.addEventListener('abort', aborted, { once: true })
        waits.push({
          ms,
          signal,
          release() {
            signal?.removeEventListener('abort', aborted)
            now = Math.max(now, end)
            resolve()
          }
        })
      })
  }
  return { clock, waits }
}
