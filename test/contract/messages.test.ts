/**
 * What the client says when a server answers oddly (issue 28's messages): a body cut short is "not valid JSON",
 * not a wrong type of field; `--verbose` logs every request and its answer, never a body.
 */
import { afterEach, describe, expect, it } from '@jest/globals'
import { createApi } from '../../src/api/client.js'
import { startCaptureServer, type CaptureServer } from './capture-server.js'
import { recordingLogger, selfHostedSettings } from './helpers.js'

let server: CaptureServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

describe('the client in words', () => {
  it('says a JSON body that does not parse is not valid JSON, with its size', async () => {
    server = await startCaptureServer([
      { status: 200, headers: { 'content-type': 'application/json' }, body: '{"data": [{"id": "a", "na' }
    ])
    const api = createApi(selfHostedSettings(server.url, 'key'))
    const error = (await api.listSources().catch((e: unknown) => e)) as Error
    await api.close()
    expect(error.message).toMatch(
      /^GET \/api\/v2\/sources returned an unexpected response: the body is not valid JSON \(/
    )
    expect(error.message).toContain('25 bytes): the response may have been cut short')
    expect(error.message).not.toMatch(/expected array/)
  })

  it('logs every request and its status at debug level (--verbose), and no body', async () => {
    server = await startCaptureServer([
      { status: 200, body: { data: [{ id: 's1', name: 'secret-looking body' }] } }
    ])
    const log = recordingLogger()
    const api = createApi(selfHostedSettings(server.url, 'key'), { log })
    await api.listSources()
    await api.close()
    expect(log.lines).toEqual([
      expect.stringMatching(/^debug: GET \/api\/v2\/sources -> HTTP 200, \d+ bytes$/)
    ])
    expect(log.lines.join('\n')).not.toContain('secret-looking')
  })
})

describe('a slow server', () => {
  it('is not a silent run: a request without an answer says it is still waiting, with the limits in force', async () => {
    server = await startCaptureServer([{ status: 200, body: { data: [] }, delayMs: 700 }])
    const log = recordingLogger()
    const api = createApi(
      selfHostedSettings(server.url, 'key', { requestTimeoutMs: 5000, retryBudgetMs: 9000 }),
      {
        log,
        slowNoticeMs: 200
      }
    )
    await api.listSources()
    await api.close()
    const waiting = log.lines.filter(l => l.startsWith('info: still waiting'))
    expect(waiting.length).toBeGreaterThanOrEqual(2)
    expect(waiting[0]).toMatch(
      /^info: still waiting for GET \/api\/v2\/sources: \d+\.\d s so far \(request-timeout 5\.0 s, retry budget 9\.0 s\)$/
    )
  })
})
