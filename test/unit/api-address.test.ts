import { describe, expect, it } from '@jest/globals'
import { pathSegment, UnsafePathSegmentError } from '../../src/api/address.js'
import { checkApiUrl, isLoopbackHost, isUuid } from '../../src/config/api-url.js'

describe('checkApiUrl', () => {
  it.each([
    ['https://api.example.com', 'https://api.example.com'],
    ['https://api.example.com/', 'https://api.example.com'],
    ['https://hyperdx.example.com:8000/', 'https://hyperdx.example.com:8000'],
    ['https://api.example.com/base//', 'https://api.example.com/base'],
    ['HTTPS://API.EXAMPLE.COM', 'https://api.example.com']
  ])('accepts the https URL %s as the base %s (no trailing slash)', (input, url) => {
    expect(checkApiUrl(input, false)).toEqual({ url })
  })

  it.each([
    ['http://127.0.0.1:8000', 'http://127.0.0.1:8000'],
    ['http://127.1.2.3:8000/', 'http://127.1.2.3:8000'],
    ['http://[::1]:8000', 'http://[::1]:8000'],
    ['http://localhost:8000', 'http://localhost:8000'],
    ['http://LOCALHOST:8000', 'http://localhost:8000'],
    ['http://api.localhost', 'http://api.localhost']
  ])('accepts plain http on loopback: %s', (input, url) => {
    expect(checkApiUrl(input, false)).toEqual({ url })
  })

  it.each([
    'http://api.example.com',
    'http://10.0.0.1:8000',
    'http://0.0.0.0:8000',
    'http://localhost.evil.com',
    'http://[::2]'
  ])('refuses plain http to %s unless allowInsecureHttp', input => {
    const refused = checkApiUrl(input, false)
    expect(refused.url).toBeUndefined()
    expect(refused.error).toMatch(
      /^must be https: .* is not a loopback address and credentials would travel unencrypted/
    )
    expect(checkApiUrl(input, true).url).toBe(input.replace(/\/$/, ''))
  })

  it.each(['ftp://example.com', 'file:///etc/passwd', 'ws://localhost:8000'])(
    'refuses the non-http scheme of %s',
    input => {
      expect(checkApiUrl(input, true).error).toMatch(/^must be an https URL, got (ftp|file|ws)$/)
    }
  )

  it.each([
    'https://admin:canary-SECRET-1f2e3d@api.example.com',
    'https://canary-SECRET-1f2e3d@api.example.com/',
    'http://user:canary-SECRET-1f2e3d@127.0.0.1:8000'
  ])('refuses credentials in the URL without echoing them: %s', input => {
    const result = checkApiUrl(input, true)
    expect(result.url).toBeUndefined()
    expect(result.error).toBe('must not contain credentials; use api-key, or key-id and key-secret')
    expect(result.error).not.toContain('canary')
  })

  it.each([
    'https://api.example.com/?token=x',
    'https://api.example.com/path?a=1',
    'https://api.example.com/#frag'
  ])('refuses a query string or fragment: %s', input => {
    expect(checkApiUrl(input, false)).toEqual({ error: 'must not have a query string or fragment' })
  })

  it.each(['https://api.example.com/?', 'https://api.example.com/#'])(
    'BUG: refuses an empty query or fragment too: %s (accepted today, and the base then swallows every path)',
    input => {
      expect(checkApiUrl(input, false)).toEqual({ error: 'must not have a query string or fragment' })
    }
  )

  it('refuses what is not a URL, saying so', () => {
    expect(checkApiUrl('api.example.com', false)).toEqual({ error: 'is not a URL: "api.example.com"' })
  })

  it('a malformed URL that carries credentials is refused without echoing them', () => {
    // The URL parser fails on the space, and the "is not a URL" message quotes the whole input, secret included.
    const result = checkApiUrl('https://admin:canary-SECRET-1f2e3d@api example.com', false)
    expect(result.error).toBeDefined()
    expect(result.error).not.toContain('canary-SECRET-1f2e3d')
  })
})

describe('isLoopbackHost', () => {
  it.each([
    ['localhost', true],
    ['a.localhost', true],
    ['127.0.0.1', true],
    ['127.255.0.9', true],
    ['::1', true],
    ['[::1]', true],
    ['0:0:0:0:0:0:0:1', true],
    ['localhost.example.com', false],
    ['128.0.0.1', false],
    ['10.0.0.1', false],
    ['::2', false],
    ['127.0.0.1.nip.io', false]
  ])('%s -> %s', (host, expected) => {
    expect(isLoopbackHost(host)).toBe(expected)
  })
})

describe('isUuid', () => {
  it.each([
    ['0b6f0a52-1c3d-4e5f-8a9b-0c1d2e3f4a5b', true],
    ['0B6F0A52-1C3D-4E5F-8A9B-0C1D2E3F4A5B', true],
    ['00000000-0000-0000-0000-000000000000', true],
    ['0b6f0a52-1c3d-4e5f-8a9b-0c1d2e3f4a5', false],
    ['0b6f0a52-1c3d-4e5f-8a9b-0c1d2e3f4a5bb', false],
    ['0b6f0a521c3d4e5f8a9b0c1d2e3f4a5b', false],
    ['{0b6f0a52-1c3d-4e5f-8a9b-0c1d2e3f4a5b}', false],
    ['0b6f0a52-1c3d-4e5f-8a9b-0c1d2e3f4a5g', false],
    [' 0b6f0a52-1c3d-4e5f-8a9b-0c1d2e3f4a5b', false],
    ['my-org', false],
    ['', false]
  ])('%s -> %s', (value, expected) => {
    expect(isUuid(value)).toBe(expected)
  })
})

describe('pathSegment', () => {
  it.each([
    '65a1f0c2b3d4e5f6a7b8c901',
    'abc_DEF-123',
    'a',
    'x'.repeat(128),
    '0b6f0a52-1c3d-4e5f-8a9b-0c1d2e3f4a5b'
  ])('passes the safe segment %s through unchanged', value => {
    expect(pathSegment(value, 'id')).toBe(value)
  })

  it.each([
    '../x',
    '..',
    '.',
    'a/b',
    '/',
    '%2F',
    '%2e%2e',
    'a\\b',
    '',
    'x'.repeat(129),
    'a b',
    'a?b',
    'a#b',
    'a\nb',
    'é'
  ])('refuses %j', value => {
    expect(() => pathSegment(value, 'dashboard id')).toThrow(UnsafePathSegmentError)
  })

  it('names what was refused, quoting at most 64 characters of it', () => {
    let error: unknown
    try {
      pathSegment(`${'z'.repeat(70)}/..`, 'alert id')
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(UnsafePathSegmentError)
    expect((error as UnsafePathSegmentError).what).toBe(`alert id "${'z'.repeat(64)}"`)
    expect((error as Error).message).toBe(
      `refusing to use alert id "${'z'.repeat(64)}" as a URL path segment: only letters, digits, "_" and "-" are allowed`
    )
  })
})
