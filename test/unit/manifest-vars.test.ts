/**
 * `${NAME}` placeholders: a whole plain scalar keeps the variable's YAML type, text inside a string is
 * interpolated, `$${NAME}` is a literal, and unknown or unusable variables are errors at their line.
 */
import { describe, expect, it } from '@jest/globals'
import type { Diagnostic } from '../../src/diagnostics.js'
import { validateText, type ManifestSet } from '../../src/manifest/load.js'
import type { Variables } from '../../src/manifest/vars.js'

const lines = (...rows: string[]): string => `${rows.join('\n')}\n`
const place = (d: Diagnostic) => ({ file: d.file, line: d.line, column: d.column, message: d.message })
const errors = (set: ManifestSet) => set.diagnostics.filter(d => d.severity === 'error').map(place)
const validate = (text: string, vars: Variables) => validateText('alerts.yaml', text, 'self-hosted', vars)

/** Dashboard "Checkout" with a line tile "Errors" (lines 1-9); the alert starts at line 10 with `---`. */
const CHECKOUT = lines(
  'kind: Dashboard',
  'name: Checkout',
  'tiles:',
  '  - name: Errors',
  '    x: 0',
  '    y: 0',
  '    w: 6',
  '    h: 3',
  '    series: [{ type: time, source: Logs, aggFn: count }]'
)
/** The README's alert: name at line 12, threshold at 15, message at 19. */
const ALERT = lines(
  '---',
  'kind: Alert',
  'name: Checkout errors (${ENV})',
  'dashboard: Checkout',
  'tile: Errors',
  'threshold: ${ERROR_THRESHOLD} # a number, not a string',
  'thresholdType: above',
  'interval: 5m',
  'channel: { type: webhook, webhook: ops-pager }',
  'message: "Errors above $${ERROR_THRESHOLD} on ${ENV}"'
)

describe('variables', () => {
  it('keeps the YAML type of a whole placeholder: the threshold stays a number', () => {
    const set = validate(CHECKOUT + ALERT, { ENV: 'staging', ERROR_THRESHOLD: 50 })
    expect(set.diagnostics).toEqual([])
    expect(set.specs.Alert[0]!.spec.threshold).toBe(50)
  })

  it('interpolates a placeholder inside a string', () => {
    const set = validate(CHECKOUT + ALERT, { ENV: 'production', ERROR_THRESHOLD: 10 })
    expect(set.specs.Alert[0]!.spec.name).toBe('Checkout errors (production)')
  })

  it('reads $${NAME} as a literal ${NAME}, next to a real placeholder', () => {
    const set = validate(CHECKOUT + ALERT, { ENV: 'staging', ERROR_THRESHOLD: 50 })
    expect(set.specs.Alert[0]!.spec.message).toBe('Errors above ${ERROR_THRESHOLD} on staging')
  })

  it("gives a whole placeholder the variable's type, quoted or not; text around it makes a string", () => {
    const quoted = validate(
      CHECKOUT + ALERT.replace('threshold: ${ERROR_THRESHOLD}', 'threshold: "${ERROR_THRESHOLD}"'),
      { ENV: 'staging', ERROR_THRESHOLD: 50 }
    )
    expect(errors(quoted)).toEqual([])
    expect(quoted.specs.Alert[0]!.spec.threshold).toBe(50)
    const text = validate(
      CHECKOUT + ALERT.replace('threshold: ${ERROR_THRESHOLD}', 'threshold: "${ERROR_THRESHOLD}0"'),
      { ENV: 'staging', ERROR_THRESHOLD: 5 }
    )
    expect(errors(text)).toEqual([
      { file: 'alerts.yaml', line: 15, column: 12, message: 'must be a number, got "50"' }
    ])
  })

  it('reports a variable given as a string where a number belongs as a type error at the placeholder', () => {
    const set = validate(CHECKOUT + ALERT, { ENV: 'staging', ERROR_THRESHOLD: '50' })
    expect(set.diagnostics.map(d => ({ line: d.line, field: d.field, message: d.message }))).toEqual([
      { line: 15, field: 'threshold', message: 'must be a number, got "50"' }
    ])
  })

  it('can supply a list where a list belongs', () => {
    const set = validate(lines('kind: Dashboard', 'name: D', 'tags: ${TAGS}'), { TAGS: ['payments', 'sre'] })
    expect(set.diagnostics).toEqual([])
    expect(set.specs.Dashboard[0]!.spec.tags).toEqual(['payments', 'sre'])
  })

  it('joins two placeholders in one string', () => {
    const set = validate(lines('kind: Dashboard', 'name: "${TEAM} ${ENV}"'), { TEAM: 'shop', ENV: 'eu' })
    expect(set.specs.Dashboard[0]!.spec.name).toBe('shop eu')
  })

  it('does not expand placeholders inside a variable value', () => {
    const set = validate(lines('kind: Dashboard', 'name: "${A}"'), { A: '${B}', B: 'expanded' })
    expect(set.specs.Dashboard[0]!.spec.name).toBe('${B}')
  })

  it('reports an unknown variable at its line with a did-you-mean hint and the known names', () => {
    const set = validate(CHECKOUT + ALERT, { ENV: 'staging', ERROR_THRESHOLDS: 50 })
    expect(errors(set)).toEqual([
      {
        file: 'alerts.yaml',
        line: 15,
        column: 12,
        message:
          'unknown variable ${ERROR_THRESHOLD} (did you mean ${ERROR_THRESHOLDS}?); known: ENV, ERROR_THRESHOLDS'
      }
    ])
  })

  it('reports every unknown variable when none are set, and says how to set them', () => {
    const set = validate(CHECKOUT + ALERT, {})
    const how = 'no variables are set (`vars` input, or --var/--vars-file)'
    expect(errors(set)).toEqual([
      { file: 'alerts.yaml', line: 12, column: 7, message: `unknown variable \${ENV}; ${how}` },
      { file: 'alerts.yaml', line: 15, column: 12, message: `unknown variable \${ERROR_THRESHOLD}; ${how}` },
      { file: 'alerts.yaml', line: 19, column: 10, message: `unknown variable \${ENV}; ${how}` }
    ])
  })

  it('reports an unknown variable in a list item at that item', () => {
    const set = validate(lines('kind: Dashboard', 'name: D', 'tags:', '  - ok', '  - "team ${TEM}"'), {
      TEAM: 'x'
    })
    expect(errors(set)).toEqual([
      {
        file: 'alerts.yaml',
        line: 5,
        column: 5,
        message: 'unknown variable ${TEM} (did you mean ${TEAM}?); known: TEAM'
      }
    ])
  })

  it('refuses a mapping or a list interpolated into a string', () => {
    const mapping = validate(CHECKOUT + ALERT, { ENV: { name: 'staging' }, ERROR_THRESHOLD: 50 })
    expect(errors(mapping)).toContainEqual({
      file: 'alerts.yaml',
      line: 12,
      column: 7,
      message: 'variable ENV is a mapping and cannot be part of a string'
    })
    const list = validate(CHECKOUT + ALERT, { ENV: ['staging'], ERROR_THRESHOLD: 50 })
    expect(errors(list)).toContainEqual({
      file: 'alerts.yaml',
      line: 12,
      column: 7,
      message: 'variable ENV is a list and cannot be part of a string'
    })
  })

  it('refuses a placeholder that is not a name', () => {
    const set = validate(lines('kind: Dashboard', 'name: "dash ${1abc}"'), {})
    expect(errors(set)).toEqual([
      {
        file: 'alerts.yaml',
        line: 2,
        column: 7,
        message: '"${1abc}" is not a valid placeholder (names are letters, digits and _)'
      }
    ])
  })

  it('leaves keys alone: a placeholder in a key is an unknown field, not a substitution', () => {
    const set = validate(lines('kind: Dashboard', 'name: D', '${KEY}: x'), { KEY: 'tags' })
    expect(set.diagnostics.map(d => d.field)).toEqual(['${KEY}'])
  })

  it('does not touch text without placeholders, nor a lone $ sign', () => {
    const set = validate(lines('kind: Dashboard', 'name: "costs $5 {a} $ {b}"'), {})
    expect(set.diagnostics).toEqual([])
    expect(set.specs.Dashboard[0]!.spec.name).toBe('costs $5 {a} $ {b}')
  })
})

describe('secret placeholders when validating (offline: no values)', () => {
  const WEBHOOK = lines(
    'kind: Webhook',
    'name: oncall',
    'service: slack',
    'url: ${secret.SLACK_URL}',
    '---',
    'kind: Connection',
    'name: Warehouse',
    'host: https://warehouse.example.com',
    'username: reader',
    'password: ${secret.WAREHOUSE_PASSWORD}'
  )
  const offline = (text: string, secrets: Record<string, string> = {}) =>
    validateText('secrets.yaml', text, 'self-hosted', {}, secrets, 'optional')

  it('accepts a well-formed placeholder whose value is not set, and checks its value only when it is', () => {
    expect(offline(WEBHOOK).diagnostics).toEqual([])
    // Set, the value is checked as before (a slack webhook must be on slack.com).
    expect(
      errors(offline(WEBHOOK, { SLACK_URL: 'https://example.com/x', WAREHOUSE_PASSWORD: 'pw' }))
    ).toEqual([
      { file: 'secrets.yaml', line: 4, column: 6, message: "a slack webhook's host must end in slack.com" }
    ])
  })

  it('still refuses a placeholder that is not a name, and a secret in a field that is not secret', () => {
    const text = WEBHOOK.replace('${secret.WAREHOUSE_PASSWORD}', '${secret.bad-name}').replace(
      'service: slack',
      'service: slack\ndescription: ${secret.READER}'
    )
    expect(errors(offline(text)).map(e => e.message)).toEqual([
      expect.stringMatching(/^\$\{secret.READER\} fills a field that is not secret/),
      '"${secret.bad-name}" is not a valid secret placeholder (names are letters, digits and _)'
    ])
  })

  it('to plan, a secret without a value is an error, as before', () => {
    const set = validateText('secrets.yaml', WEBHOOK, 'self-hosted', {}, { WAREHOUSE_PASSWORD: 'pw' })
    expect(errors(set).map(e => e.message)).toEqual([
      'unknown secret variable ${secret.SLACK_URL}: set it with the `secret-vars` input (the CLI: environment variable OBSDEPLOY_SECRET_SLACK_URL)'
    ])
  })
})
