import { describe, expect, it } from '@jest/globals'
import type { Change } from '../../src/plan/types.js'
import { renderText } from '../../src/report/text.js'
import {
  createPayments,
  deleteLegacy,
  everyKindOfChange,
  failedApply,
  hostileInput,
  makeInput,
  makePlan,
  noopOrders,
  replaceInventory,
  serviceApplied,
  updateCheckout,
  validationErrors
} from './report-fixtures.js'

const ESC = '\x1b'
/** Our colour codes: Select Graphic Rendition, nothing else. */
const SGR = new RegExp(`${ESC}\\[\\d+m`, 'g')
/** Control characters a terminal would act on, and bidi overrides that reorder text. */
// eslint-disable-next-line no-control-regex -- looking for control characters is the point
const INTERPRETED = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/

describe('text report for the terminal', () => {
  it('renders every kind of change with markers and field lines', () => {
    const text = renderText(
      makeInput({
        plan: makePlan(everyKindOfChange),
        diagnostics: validationErrors,
        uiUrl: 'https://hyperdx.example.com'
      }),
      { color: false }
    )
    expect(text).toMatchSnapshot()
    expect(text).toContain('+ create Dashboard "Payments API"  observability/dashboards/payments.yaml:1')
    expect(text).toContain('~ update Dashboard "Checkout"  observability/dashboards/checkout.yaml:3')
    // The change as YAML lines, names not ids, no JSON.
    expect(text).toContain(
      [
        '          select[0]:',
        '    -       where: level:error',
        '    +       where: level:error OR level:fatal'
      ].join('\n')
    )
    expect(text).toContain('-/+ replace Dashboard "Inventory"')
    expect(text).toContain('- delete Dashboard "Legacy checkout"  id 65f1c0ffee00000000000333')
    expect(text).toContain('- delete (by the server) Alert "Low stock"')
    expect(text).toContain(
      '    open dashboard: https://hyperdx.example.com/dashboards/65f1c0ffee00000000000abc'
    )
    expect(text).toContain('WARNING: deletes dashboard: "Legacy checkout"')
    // Destructive groups first.
    const order = ['To delete (2):', 'To replace (1):', 'To update (2):', 'To create (1):'].map(h =>
      text.indexOf(h)
    )
    expect(order.every(i => i >= 0)).toBe(true)
    expect([...order].sort((a, b) => a - b)).toEqual(order)
    expect(text).toContain('Would be deleted with prune (prune is off) (1):')
    expect(text).toContain('Waits for a release (1) (waits for a release (service-update: on-release)):')
    expect(text).toContain('    request: PATCH /v1/organizations/')
    expect(text).toContain('      releaseChannel: slow')
    expect(text).not.toMatch(/\{"|\["[^\]]*",/)
  })

  it('prints diagnostics as file:line:col field: message, errors first', () => {
    const text = renderText(makeInput({ command: 'validate', diagnostics: validationErrors }), {
      color: false
    })
    const lines = text.split('\n').filter(l => /^ {2}(error|warning)/.test(l))
    expect(lines).toEqual([
      '  error   observability/alerts/checkout.yaml:4:16 dashboard: unknown dashboard "Chekout"; did you mean "Checkout"?',
      '  error   observability/alerts/checkout.yaml:6:20 thresholdType: thresholdType must be one of above, below, got "abve"',
      '  error   observability/dashboards/checkout.yaml:14:12 tiles[0].w: must be an integer between 1 and 12, got 2.5',
      '  warning observability/dashboards/checkout.yaml:21:7 warning: tiles[2].series: tile "Latency" has no series; it renders empty'
    ])
    expect(text).toContain('Validation failed: 3 errors, 1 warning.')
  })

  it('prints apply outcomes with the server message and the request id, each resource once', () => {
    const text = renderText(
      makeInput({ command: 'apply', plan: makePlan([updateCheckout]), apply: failedApply }),
      {
        color: false
      }
    )
    expect(text).toMatchSnapshot()
    expect(text).toContain(
      '~ update Alert "Checkout error spike"  [FAILED: 400 Bad Request: "threshold" must be a positive number] [request id req_0b1c2d]'
    )
    expect(text).toContain('~ update ServiceSettings "shop-prod"  [skipped: depends on a failed change]')
    expect(text).toContain('Service settings did not converge.')
    // Each resource once.
    expect(text.match(/"Checkout error spike"/g)).toHaveLength(1)

    const service = renderText(makeInput({ command: 'apply', mode: 'managed', apply: serviceApplied }), {
      color: false
    })
    expect(service).toMatch(
      /~ update ServiceSettings "shop-prod" .*\[applied\] \[request id req_7f3a9c2e1b\]/
    )
    // Not the whole service the PATCH returned.
    expect(service).not.toContain('abc123.eu-west-1')
  })

  it('says how long a long apply takes at the pace, under the verdict, in a plan only', () => {
    const estimate = {
      version: 1,
      requests: 900,
      parts: { changes: 600, registry: 0, dryRuns: 300, rereads: 0 },
      concurrency: 4,
      pace: { requests: 10, windowMs: 10_000 },
      durationMs: 927_000
    }
    const plan = makePlan([createPayments], { estimate })
    const lines = renderText(makeInput({ plan }), { color: false }).split('\n')
    expect(lines.slice(1, 3)).toEqual([
      'Plan: 1 to create.',
      "Long apply: about 15 min at 60 requests a minute (about 900 requests), paced below the server's rate limit (rate-limit)"
    ])
    expect(renderText(makeInput({ command: 'apply', plan }), { color: false })).not.toContain('Long apply')
  })

  it('says No changes when nothing is actionable', () => {
    const text = renderText(makeInput({ plan: makePlan([noopOrders]) }), { color: false })
    expect(text).toContain('No changes. Live state matches the manifests.')
    expect(text).not.toContain('To update')
  })

  it('uses colour codes only when asked to', () => {
    const input = makeInput({
      plan: makePlan([createPayments, updateCheckout, replaceInventory, deleteLegacy]),
      diagnostics: validationErrors,
      apply: failedApply,
      command: 'apply'
    })
    const plain = renderText(input, { color: false })
    expect(plain).not.toContain(ESC)
    const coloured = renderText(input, { color: true })
    expect(coloured).toContain(`${ESC}[32m+ create${ESC}[0m`)
    expect(coloured).toContain(`${ESC}[31m- delete${ESC}[0m`)
    expect(coloured).toContain(`${ESC}[31m[FAILED: `)
    // Without its colour codes the coloured text is the plain text.
    expect(coloured.replace(SGR, '')).toBe(plain)
  })

  it('shows control and bidirectional characters of untrusted text escaped, so nothing can drive the terminal', () => {
    const nasty = 'Checkout\x1b[2J\x1b]0;pwned\x07\u009b31m\u202eevil\r\nnext\x00line\x7f'
    const change: Change = {
      ...updateCheckout,
      name: nasty,
      fields: [{ path: `tiles["${nasty}"].w`, before: nasty, after: 6 }],
      notes: [nasty],
      evidence: [nasty],
      request: { method: 'PATCH', path: `/v1/${nasty}`, body: { name: nasty } }
    }
    const input = makeInput({
      stack: nasty,
      plan: makePlan([change]),
      diagnostics: [
        { severity: 'error', message: nasty, file: nasty, line: 1, column: 2, field: nasty, stage: 'plan' }
      ],
      serviceGate: { open: false, reason: nasty },
      planFile: nasty,
      command: 'apply',
      apply: {
        outcomes: [
          {
            address: change.address,
            kind: 'ServiceSettings',
            name: nasty,
            action: 'update',
            status: 'failed',
            message: nasty,
            requestId: nasty,
            result: { name: nasty }
          }
        ],
        complete: false,
        convergence: { converged: false, remaining: [nasty] }
      }
    })
    const plain = renderText(input, { color: false })
    expect(plain).not.toMatch(INTERPRETED)
    // Visible, not dropped: two names that differ by one of them do not print alike.
    expect(plain).toContain(
      'Checkout\\u{1B}[2J\\u{1B}]0;pwned\\u{7}\\u{9B}31m\\u{202E}evil next\\u{0}line\\u{7F}'
    )
    const coloured = renderText(input, { color: true })
    expect(coloured.replace(SGR, '')).not.toMatch(INTERPRETED)
  })

  it('keeps hostile markdown text as it is: the terminal renders no markup', () => {
    const text = renderText(hostileInput(), { color: false })
    expect(text).toContain('<script>alert(1)</script>')
    expect(text).not.toMatch(INTERPRETED)
  })
})
