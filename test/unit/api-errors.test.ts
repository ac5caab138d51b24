import { describe, expect, it } from '@jest/globals'
import { unwrapEnvelope } from '../../src/api/client.js'
import {
  ApiError,
  requestIdOf,
  ResponseShapeError,
  serverMessageOf,
  UnknownOutcomeError
} from '../../src/api/errors.js'
import { hintFor } from '../../src/api/transport.js'
import { redactingLogger, redactor } from '../../src/log.js'

describe('serverMessageOf: the server words from every body shape', () => {
  it.each<[string, unknown, string, string | undefined]>([
    ['plain text', 'Dashboard not found', 'Dashboard not found', 'Dashboard not found'],
    ['{message}', { message: 'Alert not found' }, '', 'Alert not found'],
    [
      '{error} (charts)',
      { error: 'Timestamp must be in milliseconds' },
      '',
      'Timestamp must be in milliseconds'
    ],
    [
      '{status, error, requestId} (managed)',
      { status: 404, error: 'Service not found', requestId: 'r' },
      '',
      'Service not found'
    ],
    ['{error: {message}}', { error: { message: 'nested' } }, '', 'nested'],
    ['{detail}', { detail: 'problem detail' }, '', 'problem detail'],
    ['{title}', { title: 'Bad Request' }, '', 'Bad Request'],
    ['{errors: [..]}', { errors: ['a', { message: 'b' }, 3] }, '', 'a; b'],
    ['message wins over error', { message: 'm', error: 'e' }, '', 'm'],
    ['a blank message falls through', { message: '  ', error: 'e' }, '', 'e'],
    ['an object with none of those', { code: 7 }, '', undefined],
    ['an empty text', undefined, '   ', undefined],
    ['whitespace is collapsed', 'a\n\n  b\tc', 'a\n\n  b\tc', 'a b c']
  ])('%s', (_shape, body, text, expected) => {
    expect(serverMessageOf(body, text)).toBe(expected)
  })

  it('shortens a long message to 500 characters and an ellipsis', () => {
    const message = serverMessageOf({ message: 'y'.repeat(600) }, '')!
    expect(message).toBe(`${'y'.repeat(500)}…`)
  })
})

describe('requestIdOf', () => {
  it.each<[string, unknown, Record<string, string>, string | undefined]>([
    ['the body requestId', { requestId: 'body-id' }, {}, 'body-id'],
    ['the body wins over the header', { requestId: 'body-id' }, { 'x-request-id': 'h' }, 'body-id'],
    ['X-Request-Id', { message: 'x' }, { 'x-request-id': 'hdr-id' }, 'hdr-id'],
    ['Request-Id', 'text', { 'request-id': 'hdr-2' }, 'hdr-2'],
    ['an empty body requestId falls back to the header', { requestId: '' }, { 'x-request-id': 'h' }, 'h'],
    ['nothing', { message: 'x' }, {}, undefined]
  ])('%s', (_what, body, headers, expected) => {
    expect(requestIdOf(body, headers)).toBe(expected)
  })
})

describe('ApiError messages', () => {
  it('carry method, path, status, the server message, the request id and the hint, in that order', () => {
    const error = new ApiError({
      status: 403,
      method: 'PUT',
      path: '/api/v2/dashboards/abc',
      serverMessage: 'Forbidden',
      requestId: 'req-1',
      hint: 'Use another key',
      attempts: 1
    })
    expect(error.message).toBe(
      'PUT /api/v2/dashboards/abc failed with HTTP 403: Forbidden (requestId req-1). Use another key'
    )
    expect(error).toMatchObject({
      name: 'ApiError',
      status: 403,
      method: 'PUT',
      requestId: 'req-1',
      attempts: 1
    })
    expect(error).toBeInstanceOf(Error)
  })

  it('without a status say "failed"', () => {
    expect(new ApiError({ method: 'GET', path: '/x' }).message).toBe('GET /x failed')
  })

  it('UnknownOutcomeError says the write may or may not have been applied', () => {
    const error = new UnknownOutcomeError(
      { method: 'POST', path: '/api/v2/alerts' },
      'connection failed (ECONNRESET)'
    )
    expect(error).toBeInstanceOf(ApiError)
    expect(error.name).toBe('UnknownOutcomeError')
    expect(error.message).toBe(
      'POST /api/v2/alerts outcome unknown (connection failed (ECONNRESET)); it may or may not have been applied'
    )
  })

  it('ResponseShapeError names the route and the field', () => {
    const error = new ResponseShapeError(
      { method: 'GET', path: '/api/v2/alerts', status: 200 },
      '[2].threshold',
      'Expected number'
    )
    expect(error).toBeInstanceOf(ApiError)
    expect(error.name).toBe('ResponseShapeError')
    expect(error.field).toBe('[2].threshold')
    expect(error.message).toBe(
      'GET /api/v2/alerts returned an unexpected response: field [2].threshold: Expected number'
    )
    expect(new ResponseShapeError({ method: 'GET', path: '/x' }, '', 'Expected array').message).toBe(
      'GET /x returned an unexpected response: Expected array'
    )
  })
})

describe('hintFor: what a 401 or 403 means in each mode', () => {
  it('self-hosted 401: the personal API access key as a Bearer token, not the ingestion key', () => {
    const hint = hintFor(401, 'self-hosted', 'GET')!
    expect(hint).toContain('personal API access key as a Bearer token')
    expect(hint).toContain('The ingestion API key on the same page is a different credential')
  })

  it('managed 401: a key id and secret with HTTP Basic', () => {
    expect(hintFor(401, 'managed', 'GET')).toMatch(
      /API key id and secret from the cloud console, sent with HTTP Basic/
    )
  })

  it('managed 403: Admin for writes, Developer for reads', () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      expect(hintFor(403, 'managed', method)).toContain(
        'may not change this. Changing dashboards, alerts or service settings needs a key with the Admin role'
      )
    }
    expect(hintFor(403, 'managed', 'GET')).toContain(
      'may not read this. Reading needs a key with at least the Developer role'
    )
  })

  it('self-hosted 403: a team member who can manage dashboards and alerts', () => {
    expect(hintFor(403, 'self-hosted', 'PUT')).toContain(
      'use a key of a team member who can manage dashboards and alerts'
    )
  })

  it('no hint for other statuses', () => {
    for (const status of [undefined, 400, 404, 429, 500, 502])
      expect(hintFor(status, 'managed', 'GET')).toBeUndefined()
  })
})

describe('unwrapEnvelope', () => {
  it.each<[string, unknown, unknown]>([
    ['{data}', { data: [1] }, [1]],
    ['{data, meta}', { data: [1], meta: { total: 1 } }, [1]],
    ['{status, requestId, result}', { status: 200, requestId: 'r', result: { id: 'a' } }, { id: 'a' }],
    ['{requestId, result}', { requestId: 'r', result: 5 }, 5],
    ['a bare array', [{ id: 'a' }], [{ id: 'a' }]],
    ['a bare record', { id: 'a', name: 'n' }, { id: 'a', name: 'n' }],
    ['a bare validate answer', { valid: true, errors: [] }, { valid: true, errors: [] }],
    [
      'a record with a result field but no status or requestId',
      { id: 'a', result: 'x' },
      { id: 'a', result: 'x' }
    ],
    ['text', 'hello', 'hello'],
    ['nothing', undefined, undefined]
  ])('%s', (_shape, body, expected) => {
    expect(unwrapEnvelope(body)).toEqual(expected)
  })
})

describe('redactor', () => {
  const SECRET = 'canary-SECRET-1f2e3d'

  it('replaces every occurrence of a secret and of its base64 form', () => {
    const scrub = redactor([SECRET])
    const b64 = Buffer.from(SECRET).toString('base64')
    expect(scrub(`a ${SECRET} b ${SECRET} c ${b64}`)).toBe('a *** b *** c ***')
  })

  it('leaves short values alone (they would redact ordinary words) and ignores undefined', () => {
    const scrub = redactor(['abc', undefined, SECRET])
    expect(scrub('abc def')).toBe('abc def')
    expect(scrub(SECRET)).toBe('***')
  })

  it('with no secrets is the identity', () => {
    expect(redactor([])('anything')).toBe('anything')
  })

  it('redactingLogger scrubs every level', () => {
    const lines: string[] = []
    const log = redactingLogger(
      { info: m => lines.push(m), warn: m => lines.push(m), debug: m => lines.push(m) },
      [SECRET]
    )
    log.info(`i ${SECRET}`)
    log.warn(`w ${SECRET}`)
    log.debug(`d ${SECRET}`)
    expect(lines).toEqual(['i ***', 'w ***', 'd ***'])
  })
})
