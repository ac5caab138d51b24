/**
 * Errors say what happened (status, method, path, the server's own words from every body shape, the request
 * id, and for 401/403 which credential or role the mode expects), and never carry a credential: canary
 * credentials are used in every failing scenario and searched for in every message, stack and log line.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals'
import { ApiError, ResponseShapeError, UnknownOutcomeError } from '../../src/api/errors.js'
import type { ObservabilityApi } from '../../src/api/client.js'
import type { Emulator } from '../../emulator/index.js'
import { startCaptureServer, json, type CaptureServer, type CannedReply } from './capture-server.js'
import {
  ApiPool,
  basicHeader,
  CANARY,
  canarySeed,
  closedPort,
  dashboardBody,
  emulatorSettings,
  FakeClock,
  managedSettings,
  recordingLogger,
  selfHostedSettings,
  startEmu,
  UNKNOWN_ID,
  type RecordingLogger
} from './helpers.js'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

let emu: Emulator
const pool = new ApiPool()

beforeAll(async () => {
  emu = await startEmu()
})

afterAll(async () => {
  await emu.close()
})

afterEach(async () => {
  emu.faults.clear()
  await pool.closeAll()
})

const failure = async (promise: Promise<unknown>): Promise<ApiError> => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e
  )
  expect(error).toBeInstanceOf(ApiError)
  return error as ApiError
}

describe('ApiError details and the server message of each body shape', () => {
  it('plain text (self-hosted dashboard 404): status, method, path and the text', async () => {
    const api = pool.make(emulatorSettings(emu, 'self-hosted'))
    const error = await failure(api.getDashboard(UNKNOWN_ID))
    expect(error).toMatchObject({
      status: 404,
      method: 'GET',
      path: `/api/v2/dashboards/${UNKNOWN_ID}`,
      serverMessage: 'Not Found',
      attempts: 1
    })
    expect(error.message).toBe(`GET /api/v2/dashboards/${UNKNOWN_ID} failed: HTTP 404: Not Found`)
  })

  it('{message} (self-hosted alert 404 and body validation 400)', async () => {
    const api = pool.make(emulatorSettings(emu, 'self-hosted'))
    expect((await failure(api.getAlert(UNKNOWN_ID))).serverMessage).toBe('Alert not found')
    const invalid = await failure(api.createDashboard({ name: 'x', tiles: 'none' }))
    expect(invalid.status).toBe(400)
    expect(invalid.serverMessage).toMatch(/^Body validation failed: tiles/)
    expect(invalid.method).toBe('POST')
  })

  it('{error} (self-hosted charts 400)', async () => {
    const api = pool.make(emulatorSettings(emu, 'self-hosted'))
    const error = await failure(
      api.querySeries({
        startTime: Date.now() - 3_600_000,
        endTime: Date.now(),
        granularity: '1h',
        series: [{ sourceId: '65a1f0c2b3d4e5f6a7b8c901', aggFn: 'count', where: 'level:(error', groupBy: [] }]
      })
    )
    expect(error.status).toBe(400)
    expect(error.serverMessage).toMatch(/^Expected /)
    expect(error.path).toBe('/api/v2/charts/series')
  })

  it('{status, error, requestId} (managed 404): the message and the request id', async () => {
    const api = pool.make(emulatorSettings(emu, 'managed/observability'))
    const error = await failure(api.getAlert(UNKNOWN_ID))
    expect(error.status).toBe(404)
    expect(error.serverMessage).toBe('Alert not found')
    expect(error.requestId).toMatch(UUID)
    expect(error.message).toContain(`failed: HTTP 404: Alert not found (requestId ${error.requestId})`)
  })

  describe('shapes only a capture server sends', () => {
    let capture: CaptureServer
    beforeAll(async () => {
      capture = await startCaptureServer()
    })
    afterAll(async () => {
      await capture.close()
    })

    it.each<[string, CannedReply, string | undefined, string | undefined]>([
      [
        'a request id header',
        json({ message: 'nope' }, 409, { 'X-Request-Id': 'req-123' }),
        'nope',
        'req-123'
      ],
      [
        '{errors: [{message}]}',
        json({ errors: [{ message: 'a' }, { message: 'b' }] }, 422),
        'a; b',
        undefined
      ],
      ['{detail}', json({ detail: 'too big' }, 413), 'too big', undefined],
      ['{error: {message}}', json({ error: { message: 'nested' } }, 400), 'nested', undefined],
      ['an empty body', { status: 409, body: '' }, undefined, undefined],
      ['multi-line text', { status: 400, body: 'line one\n\n  line two  ' }, 'line one line two', undefined]
    ])('%s', async (_shape, reply, message, requestId) => {
      capture.respond([reply])
      const error = await failure(
        pool.make(selfHostedSettings(capture.url, 'capture-key-0001')).listSources()
      )
      expect(error.status).toBe(reply.status)
      expect(error.serverMessage).toBe(message)
      expect(error.requestId).toBe(requestId)
    })

    it('a very long server message is shortened to 500 characters', async () => {
      capture.respond([json({ message: 'x'.repeat(5000) }, 400)])
      const error = await failure(
        pool.make(selfHostedSettings(capture.url, 'capture-key-0001')).listSources()
      )
      expect(error.serverMessage).toHaveLength(501)
      expect(error.serverMessage!.endsWith('…')).toBe(true)
    })

    it('self-hosted 403: says the key is valid but its user may not do this', async () => {
      capture.respond([{ status: 403, body: 'Forbidden' }])
      const error = await failure(
        pool.make(selfHostedSettings(capture.url, 'capture-key-0001')).deleteDashboard(UNKNOWN_ID)
      )
      expect(error.status).toBe(403)
      expect(error.hint).toMatch(/valid but its user may not do this/)
    })
  })
})

describe('401 and 403 say which credential or role the mode expects', () => {
  it('self-hosted 401 with the ingestion key: expects the personal API access key, the ingestion key is a different credential', async () => {
    const api = pool.make(selfHostedSettings(emu.url, emu.credentials.ingestionKey))
    const error = await failure(api.listDashboards())
    expect(error.status).toBe(401)
    expect(error.serverMessage).toBe('Unauthorized')
    expect(error.message).toContain('personal API access key as a Bearer token')
    expect(error.message).toContain('ingestion API key on the same page is a different credential')
    expect(error.message).not.toContain(emu.credentials.ingestionKey)
  })

  it('managed 401: expects a key id and secret sent with HTTP Basic', async () => {
    const api = pool.make(
      managedSettings(emu.url, emu.credentials.keyId, 'wrong-secret-000', {
        organizationId: emu.credentials.organizationId,
        serviceId: emu.credentials.serviceId
      })
    )
    const error = await failure(api.listAlerts())
    expect(error.status).toBe(401)
    expect(error.message).toMatch(/API key id and secret from the cloud console, sent with HTTP Basic/)
    expect(error.requestId).toMatch(UUID)
  })

  it('managed 403 with the read-only key on a write: names the missing Admin role', async () => {
    const c = emu.credentials
    const api = pool.make(
      managedSettings(emu.url, c.readOnlyKeyId, c.readOnlyKeySecret, {
        organizationId: c.organizationId,
        serviceId: c.serviceId
      })
    )
    expect(await api.listDashboards()).toEqual([])
    const error = await failure(api.createDashboard(dashboardBody('Not allowed')))
    expect(error.status).toBe(403)
    expect(error.serverMessage).toBe('Forbidden: this API key is not allowed to make changes')
    expect(error.message).toContain('its role may not change this')
    expect(error.message).toContain('needs a key with the Admin role')
    expect(emu.managed().dashboards.size).toBe(0)
  })
})

// --- canary ------------------------------------------------------------------------------------------------

const FORBIDDEN = [
  ...Object.values(CANARY),
  ...Object.values(CANARY).map(v => Buffer.from(v).toString('base64')),
  basicHeader(CANARY.keyId, CANARY.keySecret).slice('Basic '.length),
  basicHeader(CANARY.readOnlyKeyId, CANARY.readOnlyKeySecret).slice('Basic '.length)
]

function leaks(texts: string[]): string[] {
  const found: string[] = []
  for (const text of texts) {
    for (const secret of FORBIDDEN)
      if (text.includes(secret)) found.push(`${secret} in: ${text.slice(0, 300)}`)
    if (/authorization/i.test(text)) found.push(`"Authorization" in: ${text.slice(0, 300)}`)
  }
  return found
}

function textsOf(error: unknown): string[] {
  const e = error as ApiError
  return [e.message, e.stack ?? '', String(e), JSON.stringify(e), e.serverMessage ?? '', e.hint ?? '']
}

interface Scenario {
  name: string
  run: (log: RecordingLogger) => Promise<unknown>
  expected?: new (...args: never[]) => Error
}

describe('canary credentials never appear in an error or a log line', () => {
  let canaryEmu: Emulator
  let capture: CaptureServer
  let refused: string

  beforeAll(async () => {
    canaryEmu = await startEmu({ seed: canarySeed() })
    capture = await startCaptureServer()
    refused = `http://127.0.0.1:${await closedPort()}`
  })

  afterAll(async () => {
    await canaryEmu.close()
    await capture.close()
  })

  afterEach(() => canaryEmu.faults.clear())

  const org = () => canaryEmu.credentials.organizationId
  const fast = { requestTimeoutMs: 150, retryBudgetMs: 2000 }
  const selfHosted = (url: string, log: RecordingLogger, maxAttempts = 3): ObservabilityApi =>
    pool.make(selfHostedSettings(url, CANARY.apiKey, fast), { log, maxAttempts, clock: new FakeClock() })
  const managed = (url: string, log: RecordingLogger, readOnly = false, maxAttempts = 3): ObservabilityApi =>
    pool.make(
      managedSettings(
        url,
        readOnly ? CANARY.readOnlyKeyId : CANARY.keyId,
        readOnly ? CANARY.readOnlyKeySecret : CANARY.keySecret,
        { ...fast, organizationId: org() }
      ),
      { log, maxAttempts, clock: new FakeClock() }
    )

  const scenarios: Scenario[] = [
    { name: 'self-hosted 401 (canary key refused)', run: log => selfHosted(emu.url, log).listDashboards() },
    {
      name: 'managed 401 (canary key id and secret refused)',
      run: log =>
        pool
          .make(
            managedSettings(emu.url, CANARY.keyId, CANARY.keySecret, {
              organizationId: emu.credentials.organizationId
            }),
            { log }
          )
          .listAlerts()
    },
    {
      name: 'managed 403 (canary read-only key writes)',
      run: log => managed(canaryEmu.url, log, true).createDashboard(dashboardBody('x'))
    },
    {
      name: 'managed 403 on the service PATCH',
      run: log => managed(canaryEmu.url, log, true).patchService({ name: 'x' })
    },
    {
      name: 'self-hosted 502 after retries',
      run: log => {
        canaryEmu.faults.add({ kind: '502' })
        return selfHosted(canaryEmu.url, log).listSources()
      }
    },
    {
      name: 'managed 503 after retries',
      run: log => {
        canaryEmu.faults.add({ kind: '503' })
        return managed(canaryEmu.url, log).getService()
      }
    },
    {
      name: 'managed 429 beyond the budget',
      run: log => {
        canaryEmu.faults.add({ kind: '429', retryAfterSeconds: 60 })
        return managed(canaryEmu.url, log).listDashboards()
      }
    },
    {
      name: 'self-hosted 500',
      run: log => {
        canaryEmu.faults.add({ kind: '500' })
        return selfHosted(canaryEmu.url, log).listAlerts()
      }
    },
    {
      name: 'self-hosted POST 502 (unknown outcome)',
      run: log => {
        canaryEmu.faults.add({ kind: '502' })
        return selfHosted(canaryEmu.url, log).createDashboard(dashboardBody('x'))
      },
      expected: UnknownOutcomeError
    },
    {
      name: 'managed commit-drop (unknown outcome)',
      run: log => {
        canaryEmu.faults.add({ method: 'POST', kind: 'commit-drop' })
        return managed(canaryEmu.url, log).createDashboard(dashboardBody('x'))
      },
      expected: UnknownOutcomeError
    },
    {
      name: 'self-hosted GET timeouts after retries',
      run: log => {
        canaryEmu.faults.add({ kind: 'delay', delayMs: 60_000 })
        return selfHosted(canaryEmu.url, log, 2).listSources()
      }
    },
    {
      name: 'managed POST timeout (unknown outcome)',
      run: log => {
        canaryEmu.faults.add({ kind: 'delay', delayMs: 60_000 })
        return managed(canaryEmu.url, log).createAlert({ threshold: 1 })
      },
      expected: UnknownOutcomeError
    },
    { name: 'self-hosted connection refused', run: log => selfHosted(refused, log).listDashboards() },
    {
      name: 'managed connection refused',
      run: log => managed(refused, log).createDashboard(dashboardBody('x'))
    },
    {
      name: 'self-hosted response shape error',
      run: log => {
        capture.respond(() => json({ data: [{ id: CANARY.apiKey.length, threshold: 'x' }] }))
        return selfHosted(capture.url, log).listAlerts()
      },
      expected: ResponseShapeError
    },
    {
      name: 'managed response shape error',
      run: log => {
        capture.respond(() => json({ status: 200, requestId: 'r', result: { name: 1 } }))
        return managed(capture.url, log).getService()
      },
      expected: ResponseShapeError
    },
    {
      name: 'self-hosted server echoing the Bearer header in a {message} 401',
      run: log => {
        capture.respond(req => json({ message: `bad token: ${req.headers.authorization}` }, 401))
        return selfHosted(capture.url, log).listSources()
      }
    },
    {
      name: 'self-hosted server echoing the raw key in plain text after 503 retries',
      run: log => {
        capture.respond(req => ({
          status: 503,
          body: `upstream refused key ${String(req.headers.authorization).slice(7)}`
        }))
        return selfHosted(capture.url, log).listSources()
      }
    }
  ]

  it.each(scenarios.map(s => [s.name, s] as const))('%s', async (_name, scenario) => {
    const log = recordingLogger()
    const error = await scenario.run(log).then(
      () => undefined,
      (e: unknown) => e
    )
    expect(error).toBeInstanceOf(scenario.expected ?? ApiError)
    expect(leaks([...textsOf(error), ...log.lines])).toEqual([])
  })

  it('retries are logged, and no log line carries a credential', async () => {
    const log = recordingLogger()
    canaryEmu.faults.add({ sequence: ['502', '503', 'reset'] })
    await managed(canaryEmu.url, log, false, 5).listSources()
    // Each answer (--verbose), and each retry with its wait: three retries, three answers (the reset had none).
    const retries = log.lines.filter(l => /retrying in/.test(l))
    expect(retries).toHaveLength(3)
    expect(retries[0]).toMatch(
      /^debug: GET \/v1\/organizations\/.*\/observability\/sources: HTTP 502; retrying in/
    )
    expect(log.lines.filter(l => / -> HTTP \d+, \d+ bytes$/.test(l))).toHaveLength(3)
    expect(leaks(log.lines)).toEqual([])
  })

  it('an echoed Bearer credential is replaced by *** in the server message', async () => {
    capture.respond(req => json({ message: `bad token: ${req.headers.authorization}` }, 400))
    const error = await failure(selfHosted(capture.url, recordingLogger()).listSources())
    expect(error.serverMessage).toBe('bad token: Bearer ***')
  })

  it('an echoed Basic credential is redacted in the server message (managed)', async () => {
    // The redactor knows the key id and the secret, and the base64 of each, but not the base64 of
    // "keyId:keySecret", which is what the Authorization header carries.
    capture.respond(req =>
      json({ status: 401, error: `bad credentials: ${req.headers.authorization}`, requestId: 'r1' }, 401)
    )
    const error = await failure(managed(capture.url, recordingLogger()).listSources())
    expect(error.serverMessage).toBe('bad credentials: Basic ***')
    expect(leaks(textsOf(error))).toEqual([])
  })

  it('an UnknownOutcomeError is redacted like every other ApiError', async () => {
    // transport.ts throws UnknownOutcomeError with the raw details, bypassing the scrubber of this.error().
    capture.respond(req => json({ message: `bad token: ${req.headers.authorization}` }, 502))
    const error = await failure(
      selfHosted(capture.url, recordingLogger()).createDashboard(dashboardBody('x'))
    )
    expect(error).toBeInstanceOf(UnknownOutcomeError)
    expect(leaks(textsOf(error))).toEqual([])
  })
})
