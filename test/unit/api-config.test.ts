import { describe, expect, it } from '@jest/globals'
import type { RawSettings } from '../../src/config/inputs.js'
import { parseConfig, type ConfigContext } from '../../src/config/parse.js'
import { parseRateLimit } from '../../src/config/rate-limit.js'

const ctx: ConfigContext = {
  cwd: '/work/repo',
  defaultStack: 'shop',
  defaultPlanPath: '.obsdeploy/plan.json',
  serviceGate: () => ({ open: false, reason: 'waits for a release' }),
  label: name => `input \`${name}\``
}

const ORG = '0b6f0a52-1c3d-4e5f-8a9b-0c1d2e3f4a5b'
const SVC = '5e7a8b9c-0d1e-4f2a-9b3c-4d5e6f7a8b9c'

const managed = (extra: RawSettings = {}): RawSettings => ({
  mode: 'managed',
  'key-id': 'key-id-0001',
  'key-secret': 'key-secret-0001',
  'organization-id': ORG,
  'service-id': SVC,
  ...extra
})
const selfHosted = (extra: RawSettings = {}): RawSettings => ({
  'api-url': 'https://hyperdx.example.com:8000',
  'api-key': 'personal-key-0001',
  ...extra
})

const messages = (raw: RawSettings) => parseConfig(raw, ctx).diagnostics.map(d => d.message)

describe('parseConfig: the API settings', () => {
  it('self-hosted: Bearer auth, the URL normalized, the default pacing 100/60 s, timeouts in ms', () => {
    const { config, diagnostics } = parseConfig(
      selfHosted({ 'api-url': 'https://hyperdx.example.com:8000/' }),
      ctx
    )
    expect(diagnostics).toEqual([])
    expect(config).toMatchObject({
      mode: 'self-hosted',
      apiUrl: 'https://hyperdx.example.com:8000',
      auth: { kind: 'bearer', apiKey: 'personal-key-0001' },
      rateLimit: { requests: 100, windowMs: 60_000 },
      requestTimeoutMs: 30_000,
      retryBudgetMs: 120_000,
      managedPrefix: 'auto'
    })
  })

  it('managed: Basic auth, the default cloud URL, the default pacing 10/10 s, the UUIDs kept', () => {
    const { config } = parseConfig(managed(), ctx)
    expect(config).toMatchObject({
      mode: 'managed',
      apiUrl: 'https://api.clickhouse.cloud',
      auth: { kind: 'basic', keyId: 'key-id-0001', keySecret: 'key-secret-0001' },
      organizationId: ORG,
      serviceId: SVC,
      rateLimit: { requests: 10, windowMs: 10_000 }
    })
  })

  it('managed: the prefix is auto by default, either prefix can be chosen; anything else is refused', () => {
    expect(parseConfig(managed(), ctx).config?.managedPrefix).toBe('auto')
    for (const prefix of ['clickstack', 'observability'])
      expect(parseConfig(managed({ 'managed-prefix': prefix }), ctx).config?.managedPrefix).toBe(prefix)
    expect(messages(managed({ 'managed-prefix': '../admin' }))).toEqual([
      'input `managed-prefix`: must be one of auto, clickstack, observability, got "../admin"'
    ])
  })

  it.each([
    ['organization-id', 'my-org'],
    ['organization-id', '../../x'],
    ['service-id', '5e7a8b9c0d1e4f2a9b3c4d5e6f7a8b9c'],
    ['service-id', `${SVC}/alerts`]
  ])('managed: a non-UUID %s (%s) gives no config', (name, value) => {
    const { config, diagnostics } = parseConfig(managed({ [name]: value }), ctx)
    expect(config).toBeUndefined()
    expect(diagnostics.map(d => d.message)).toEqual([`input \`${name}\`: must be a UUID, got "${value}"`])
    expect(diagnostics[0]).toMatchObject({ severity: 'error', stage: 'config' })
  })

  it('managed: missing ids and keys are each named', () => {
    expect(messages({ mode: 'managed' })).toEqual([
      'input `organization-id`: is required in managed mode (a UUID)',
      'input `service-id`: is required in managed mode (a UUID)',
      'input `key-id`: is required in managed mode, with input `key-secret` (an API key id and secret from the cloud console)'
    ])
    expect(messages(managed({ 'key-secret': ' ' }))).toEqual([
      'input `key-secret`: is required in managed mode, with input `key-id` (an API key id and secret from the cloud console)'
    ])
  })

  it('credentials of the other mode: the message suggests that mode', () => {
    expect(
      messages(selfHosted({ 'api-key': '', 'key-id': 'key-id-0001', 'key-secret': 'key-secret-0001' }))
    ).toEqual([
      'input `api-key`: is required in self-hosted mode: a personal API access key (team settings, API keys). input `key-id` and input `key-secret` are managed-mode credentials: did you mean `mode: managed`?'
    ])
    const cli = { ...ctx, label: (n: string) => `--${n}`, suggest: (n: string, v: string) => `--${n} ${v}` }
    const fromCli = parseConfig(
      managed({ 'key-id': '', 'key-secret': '', 'api-key': 'personal-key-0001' }),
      cli
    )
    expect(fromCli.diagnostics.map(d => d.message)).toEqual([
      '--key-id: is required in managed mode, with --key-secret (an API key id and secret from the cloud console). --api-key is a self-hosted credential: did you mean --mode self-hosted?'
    ])
  })

  it('self-hosted: the api-url and the api-key are required (not for validate)', () => {
    expect(messages({})).toEqual([
      'input `api-url`: is required in self-hosted mode (the API base URL, e.g. https://hyperdx.example.com:8000)',
      'input `api-key`: is required in self-hosted mode: a personal API access key (team settings, API keys)'
    ])
    expect(parseConfig({ command: 'validate' }, ctx).config?.auth).toEqual({ kind: 'none' })
  })

  it('validate keeps a credential it is given (it keys the masks of emails), and asks for none', () => {
    const validate = (raw: RawSettings) => parseConfig({ command: 'validate', ...raw }, ctx)
    expect(validate({ 'api-key': 'personal-key-0001' })).toMatchObject({
      diagnostics: [],
      config: { auth: { kind: 'bearer', apiKey: 'personal-key-0001' } }
    })
    expect(validate(managed())).toMatchObject({
      diagnostics: [],
      config: { auth: { kind: 'basic', keyId: 'key-id-0001', keySecret: 'key-secret-0001' } }
    })
    // Half a managed credential is none, and no error: validate needs none.
    expect(validate(managed({ 'key-secret': '' }))).toMatchObject({
      diagnostics: [],
      config: { auth: { kind: 'none' } }
    })
    // Each mode's own credential only.
    expect(validate({ mode: 'managed', 'api-key': 'personal-key-0001' }).config?.auth).toEqual({
      kind: 'none'
    })
  })

  it('the api-url must be https unless loopback or allow-insecure-http', () => {
    expect(messages(selfHosted({ 'api-url': 'http://hyperdx.internal:8000' }))).toEqual([
      'input `api-url`: must be https: hyperdx.internal:8000 is not a loopback address and credentials would travel unencrypted (set allow-insecure-http to accept that)'
    ])
    expect(
      parseConfig(
        selfHosted({ 'api-url': 'http://hyperdx.internal:8000', 'allow-insecure-http': 'true' }),
        ctx
      ).config?.apiUrl
    ).toBe('http://hyperdx.internal:8000')
    expect(parseConfig(selfHosted({ 'api-url': 'http://127.0.0.1:8000' }), ctx).config?.apiUrl).toBe(
      'http://127.0.0.1:8000'
    )
  })

  it('credentials in the api-url are refused without being echoed', () => {
    const found = messages(selfHosted({ 'api-url': 'https://me:canary-SECRET-1f2e3d@hyperdx.example.com' }))
    expect(found).toEqual([
      'input `api-url`: must not contain credentials; use api-key, or key-id and key-secret'
    ])
    expect(found.join('\n')).not.toContain('canary')
  })

  it('request-timeout, retry-budget and connect-budget are seconds within their bounds', () => {
    const { config } = parseConfig(
      selfHosted({ 'request-timeout': '2.5', 'retry-budget': '0', 'connect-budget': '3' }),
      ctx
    )
    expect(config).toMatchObject({ requestTimeoutMs: 2500, retryBudgetMs: 0, connectBudgetMs: 3000 })
    expect(parseConfig(selfHosted(), ctx).config?.connectBudgetMs).toBe(10_000)
    expect(messages(selfHosted({ 'request-timeout': '0' }))).toEqual([
      'input `request-timeout`: must be a number from 0.1 to 600, got "0"'
    ])
    expect(messages(selfHosted({ 'retry-budget': 'lots' }))).toEqual([
      'input `retry-budget`: must be a number from 0 to 3600, got "lots"'
    ])
  })

  it.each([
    ['-1', 'got "-1"'],
    ['2.5', 'got "2.5"'],
    ['0', 'got "0"'],
    ['65', 'got "65"'],
    ['0x10', 'got "0x10"'],
    ['1e1', 'got "1e1"'],
    ['four', 'got "four"'],
    ['4 requests at a time, please', 'got a string of 28 characters']
  ])('concurrency %s is refused with its range', (value, got) => {
    expect(messages(selfHosted({ concurrency: value }))).toEqual([
      `input \`concurrency\`: must be a whole number from 1 to 64, ${got}`
    ])
  })

  it('concurrency takes whole numbers in range, with a sign or not', () => {
    for (const [text, n] of [
      ['1', 1],
      ['+8', 8],
      ['64', 64],
      [' 16 ', 16]
    ] as const)
      expect(parseConfig(selfHosted({ concurrency: text }), ctx).config?.concurrency).toBe(n)
  })

  it('rate-limit "off" turns pacing off; a custom value is used as is', () => {
    expect(parseConfig(selfHosted({ 'rate-limit': 'off' }), ctx).config?.rateLimit).toBeNull()
    expect(parseConfig(managed({ 'rate-limit': '5/2s' }), ctx).config?.rateLimit).toEqual({
      requests: 5,
      windowMs: 2000
    })
  })
})

describe('an api-url that already ends in the API path', () => {
  it('self-hosted: /api/v2 is dropped with a note that names the base URL to pass', () => {
    const { config, diagnostics } = parseConfig(
      selfHosted({ 'api-url': 'http://127.0.0.1:8000/api/v2' }),
      ctx
    )
    expect(config?.apiUrl).toBe('http://127.0.0.1:8000')
    expect(diagnostics).toEqual([
      expect.objectContaining({
        severity: 'warning',
        message:
          "input `api-url`: ends in /api/v2: dropped it, because the base URL is the server's address and obsdeploy adds the API's path itself. Pass `api-url: http://127.0.0.1:8000` to silence this note"
      })
    ])
  })

  it('keeps a path prefix before the API path (a reverse proxy), and drops a route after it', () => {
    const url = 'https://ops.example.com/hyperdx/api/v2/dashboards/'
    expect(parseConfig(selfHosted({ 'api-url': url }), ctx).config?.apiUrl).toBe(
      'https://ops.example.com/hyperdx'
    )
    expect(
      parseConfig(selfHosted({ 'api-url': 'https://ops.example.com/hyperdx' }), ctx).diagnostics
    ).toEqual([])
  })

  it('managed: the organization and service path is dropped, and its ids are used when not given', () => {
    const url = `http://127.0.0.1:8000/v1/organizations/${ORG}/services/${SVC}`
    const { config, diagnostics } = parseConfig(
      managed({ 'api-url': url, 'organization-id': '', 'service-id': '' }),
      ctx
    )
    expect(config).toMatchObject({ apiUrl: 'http://127.0.0.1:8000', organizationId: ORG, serviceId: SVC })
    expect(diagnostics.map(d => d.severity)).toEqual(['warning'])
    const other = '7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e0f'
    expect(messages(managed({ 'api-url': `${url}/observability`, 'service-id': other }))).toEqual([
      `input \`service-id\`: is ${other}, but api-url names ${SVC}: drop the path from api-url`
    ])
  })

  it("managed: the Terraform provider's base URL (https://api.clickhouse.cloud/v1) is the cloud's address", () => {
    const { config, diagnostics } = parseConfig(
      managed({ 'api-url': 'https://api.clickhouse.cloud/v1' }),
      ctx
    )
    expect(config?.apiUrl).toBe('https://api.clickhouse.cloud')
    expect(diagnostics.map(d => d.message)).toEqual([
      expect.stringMatching(/^input `api-url`: ends in \/v1: dropped it/)
    ])
  })

  it('a path of the other mode is refused, suggesting the mode', () => {
    expect(messages(managed({ 'api-url': 'https://hyperdx.example.com/api/v2' }))).toEqual([
      "input `api-url`: ends in /api/v2, a path of the self-hosted API, but the mode is managed: did you mean `mode: self-hosted`? The base URL is the server's address (https://hyperdx.example.com); obsdeploy adds the API's path itself"
    ])
    expect(
      messages(selfHosted({ 'api-url': `https://api.clickhouse.cloud/v1/organizations/${ORG}` }))
    ).toEqual([
      expect.stringMatching(
        /^input `api-url`: ends in \/v1\/organizations\/\S+, a path of the managed API, but the mode is self-hosted: did you mean `mode: managed`\?/
      )
    ])
  })
})

describe('parseRateLimit', () => {
  const parse = (text: string | undefined, mode: 'self-hosted' | 'managed' = 'self-hosted') => {
    const failures: string[] = []
    const value = parseRateLimit(text, mode, m => failures.push(m))
    return { value, failures }
  }

  it.each([
    ['100/60s', { requests: 100, windowMs: 60_000 }],
    ['10/10s', { requests: 10, windowMs: 10_000 }],
    ['600/1m', { requests: 600, windowMs: 60_000 }],
    ['10/300ms', { requests: 10, windowMs: 300 }],
    ['10 / 1.5 s', { requests: 10, windowMs: 1500 }],
    ['7/30', { requests: 7, windowMs: 30_000 }]
  ])('%s', (text, expected) => {
    expect(parse(text)).toEqual({ value: expected, failures: [] })
  })

  it.each(['off', 'OFF', 'none', '0'])('%s turns pacing off', text => {
    expect(parse(text)).toEqual({ value: null, failures: [] })
  })

  it('the default depends on the mode', () => {
    expect(parse(undefined).value).toEqual({ requests: 100, windowMs: 60_000 })
    expect(parse(undefined, 'managed').value).toEqual({ requests: 10, windowMs: 10_000 })
  })

  it.each(['fast', '0/10s', '10/0s', '-1/10s', '10/10h', '10'])(
    '%s is refused and the mode default is kept',
    text => {
      const { value, failures } = parse(text, 'managed')
      expect(failures).toEqual([`must look like 100/60s (requests per window) or off, got "${text}"`])
      expect(value).toEqual({ requests: 10, windowMs: 10_000 })
    }
  )
})
