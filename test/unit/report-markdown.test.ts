import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import type { Diagnostic } from '../../src/diagnostics.js'
import type { Change } from '../../src/plan/types.js'
import { COMMENT_LIMIT, renderMarkdown, SUMMARY_LIMIT } from '../../src/report/markdown.js'
import type { ReportInput } from '../../src/report/input.js'
import {
  createPayments,
  deleteLegacy,
  droppedLowStockAlert,
  everyKindOfChange,
  failedApply,
  HOSTILE,
  hostileInput,
  hugePlan,
  makeInput,
  makePlan,
  noopOrders,
  noopOrdersAlert,
  prunePendingFunnel,
  releasePendingService,
  replaceInventory,
  serviceApplied,
  updateAlertWithEvidence,
  updateCheckout,
  validationErrors
} from './report-fixtures.js'

const MARKER = '<!-- obsdeploy:sticky stack=shop job=CI%2Fplan -->\n'
const comment = (input: ReportInput) => renderMarkdown(input, { maxLength: COMMENT_LIMIT, header: MARKER })
const bytes = (text: string) => Buffer.byteLength(text, 'utf8')

// ---------------------------------------------------------------------------------------------------
// Structure checks: what GitHub needs for the markup to hold, whatever the text inside.

/** Opened and closed in order, never nested, every <summary> followed by the blank line markdown needs. */
function expectDetailsBalanced(md: string): void {
  let depth = 0
  for (const tag of md.match(/<\/?details>/g) ?? []) {
    depth += tag === '<details>' ? 1 : -1
    expect(depth === 0 || depth === 1).toBe(true)
  }
  expect(depth).toBe(0)
  expect((md.match(/<summary>/g) ?? []).length).toBe((md.match(/<details>/g) ?? []).length)
  expect(md.match(/<\/summary>\n(?!\n)/)).toBeNull()
}

/** A cell boundary is a `|` after an even number of backslashes. */
function cellBoundaries(line: string): number {
  let count = 0
  let backslashes = 0
  for (const ch of line) {
    if (ch === '|' && backslashes % 2 === 0) count++
    backslashes = ch === '\\' ? backslashes + 1 : 0
  }
  return count
}

/** Every row of every table has as many cells as its header. */
function expectTablesIntact(md: string): void {
  let header: number | undefined
  for (const line of withoutCodeBlocks(md).split('\n')) {
    if (!line.startsWith('|')) {
      header = undefined
      continue
    }
    header ??= cellBoundaries(line)
    expect(`${cellBoundaries(line)} ${line.slice(0, 60)}`).toBe(`${header} ${line.slice(0, 60)}`)
  }
}

/** Fenced blocks removed as CommonMark reads them: a fence closes only with a run at least as long. */
function withoutCodeBlocks(md: string): string {
  const out: string[] = []
  let fence: string | undefined
  for (const line of md.split('\n')) {
    const run = /^(`{3,})/.exec(line)?.[1]
    if (fence === undefined && run) fence = run
    else if (fence !== undefined && run && run.length >= fence.length && line.trim() === run)
      fence = undefined
    else if (fence === undefined) out.push(line)
  }
  expect(fence).toBeUndefined()
  return out.join('\n')
}

function expectWellFormed(md: string): void {
  expectDetailsBalanced(md)
  expectTablesIntact(md)
}

// ---------------------------------------------------------------------------------------------------

describe('markdown report of each kind of change', () => {
  const cases: Array<[string, ReportInput]> = [
    ['a create', makeInput({ plan: makePlan([createPayments, noopOrders]) })],
    [
      'an update with field changes and a UI link',
      makeInput({
        plan: makePlan([updateCheckout, updateAlertWithEvidence]),
        uiUrl: 'https://hyperdx.example.com'
      })
    ],
    ['a replace with notes', makeInput({ plan: makePlan([replaceInventory]) })],
    ['a delete', makeInput({ plan: makePlan([deleteLegacy, noopOrders]) })],
    ['an alert the server will drop', makeInput({ plan: makePlan([droppedLowStockAlert]) })],
    ['a deferred prune', makeInput({ plan: makePlan([prunePendingFunnel, noopOrders]) })],
    [
      'a deferred release with the PATCH body',
      makeInput({ mode: 'managed', plan: makePlan([releasePendingService], { mode: 'managed' }) })
    ],
    [
      'a service apply result with its request id',
      makeInput({
        command: 'apply',
        mode: 'managed',
        trigger: 'release v1.4.0',
        serviceGate: { open: true, reason: 'release v1.4.0 published' },
        plan: makePlan([{ ...releasePendingService, deferred: undefined }], {
          command: 'apply',
          mode: 'managed'
        }),
        apply: serviceApplied
      })
    ],
    [
      'a failed apply',
      makeInput({
        command: 'apply',
        trigger: 'push to main',
        plan: makePlan(
          [
            createPayments,
            updateCheckout,
            updateAlertWithEvidence,
            { ...releasePendingService, deferred: undefined }
          ],
          {
            command: 'apply'
          }
        ),
        apply: failedApply
      })
    ],
    [
      'drift',
      makeInput({
        command: 'drift',
        trigger: 'schedule',
        plan: makePlan([updateCheckout, createPayments, { ...deleteLegacy, deferred: 'prune' }, noopOrders], {
          command: 'drift'
        })
      })
    ],
    [
      'validation errors only',
      makeInput({ command: 'validate', diagnostics: validationErrors, planFile: undefined })
    ],
    ['no changes', makeInput({ plan: makePlan([noopOrders, noopOrdersAlert]) })],
    [
      'every kind of change at once',
      makeInput({ plan: makePlan(everyKindOfChange), uiUrl: 'https://hyperdx.example.com' })
    ]
  ]

  it.each(cases)('renders %s', (_name, input) => {
    const md = comment(input)
    expect(md).toMatchSnapshot()
    expect(md.startsWith(MARKER)).toBe(true)
    expectWellFormed(md)
  })

  it('says "No changes" when nothing is actionable', () => {
    const md = comment(makeInput({ plan: makePlan([noopOrders, noopOrdersAlert]) }))
    expect(md).toContain('No changes. Live state matches the manifests.')
    expect(md).not.toContain('<details>')
  })

  it('still says "No changes" when the only changes are deferred, and lists them', () => {
    const md = comment(makeInput({ plan: makePlan([prunePendingFunnel, releasePendingService]) }))
    expect(md).toContain('No changes will be applied by this run')
    expect(md).toContain('#### ⏸️ Would be deleted with prune')
    expect(md).toContain('#### ⏳ Waits for a release')
    expect(md).toContain('waits for a release \\(service-update: on-release\\)')
    expect(md).toContain('"releaseChannel": "slow"')
  })

  it('makes deletes, replaces and server-dropped alerts stand out, with a callout above the details', () => {
    const md = comment(
      makeInput({ plan: makePlan([updateCheckout, replaceInventory, droppedLowStockAlert, deleteLegacy]) })
    )
    const callout = md.indexOf('> [!WARNING]')
    expect(callout).toBeGreaterThan(0)
    expect(callout).toBeLessThan(md.indexOf('<details>'))
    expect(md).toContain('**This plan deletes or replaces 3 resources.**')
    expect(md).toMatch(/<summary>⚠️ 🗑️ Dashboard <b>Legacy checkout<\/b>: <b>will be deleted<\/b>/)
    expect(md).toMatch(/<summary>⚠️ ♻️ Dashboard <b>Inventory<\/b>: <b>will be replaced<\/b>/)
    expect(md).toMatch(/<summary>⚠️ 🗑️ Alert <b>Low stock<\/b>: <b>will be deleted by the server<\/b>/)
    expect(md).not.toMatch(/<summary>⚠️ ✏️/)
  })

  it('names the manifest line and shows the field change of the Checkout errors tile', () => {
    const md = comment(makeInput({ plan: makePlan([updateCheckout]) }))
    expect(md).toContain('<code>observability/dashboards/checkout.yaml:3</code>')
    expect(md).toContain(
      '| <code>tiles\\[&quot;Errors&quot;\\].select\\[0\\].where</code> | <code>level:error</code> | <code>level:error OR level:fatal</code> |'
    )
  })

  it('links dashboards and alerts in the UI only when the URL is configured and the id is plain', () => {
    const ui = 'https://hyperdx.example.com/'
    const md = comment(
      makeInput({ plan: makePlan([updateCheckout, updateAlertWithEvidence, createPayments]), uiUrl: ui })
    )
    expect(md).toContain('[Open in the UI](https://hyperdx.example.com/dashboards/65f1c0ffee00000000000abc)')
    expect(md).toContain('[Open in the UI](https://hyperdx.example.com/alerts)')
    expect(md.match(/Open in the UI/g)).toHaveLength(2)
    expect(comment(makeInput({ plan: makePlan([updateCheckout]) }))).not.toContain('Open in the UI')
    const odd = comment(makeInput({ plan: makePlan([{ ...updateCheckout, id: '../admin' }]), uiUrl: ui }))
    expect(odd).not.toContain('Open in the UI')
  })

  it('lists the diagnostics of all stages once, errors before warnings', () => {
    const planError: Diagnostic = {
      severity: 'error',
      message: 'tile "Errors" is referenced by alert "Checkout error spike" but no longer exists',
      file: 'observability/alerts/checkout.yaml',
      line: 5,
      column: 9,
      field: 'tile',
      stage: 'plan'
    }
    const md = comment(
      makeInput({
        diagnostics: [...validationErrors, { ...planError, stage: 'validate' }],
        plan: makePlan([updateCheckout], { diagnostics: [planError, validationErrors[1]] })
      })
    )
    const lines = md.split('\n').filter(l => /^- (❌|⚠️)/.test(l))
    expect(lines).toHaveLength(5)
    expect(lines.slice(0, 4).every(l => l.startsWith('- ❌'))).toBe(true)
    expect(lines[4]).toMatch(
      /^- ⚠️ observability\/dashboards\/checkout\.yaml:21:7 warning: tiles\\\[2\\\]\.series: /
    )
    expect(md).toContain('#### Problems: 4 errors, 1 warning')
    expect(md).toContain(
      '- ❌ observability/alerts/checkout.yaml:5:9 tile: tile &quot;Errors&quot; is referenced'
    )
  })

  it('renders a validation-only report as the problems and a one-line verdict', () => {
    const md = comment(makeInput({ command: 'validate', diagnostics: validationErrors, planFile: undefined }))
    expect(md).toContain('**Validation failed: 3 errors, 1 warning.**')
    expect(md).not.toContain('| Kind |')
    expect(md).not.toContain('<details>')
    const clean = comment(makeInput({ command: 'validate', diagnostics: [], planFile: undefined }))
    expect(clean).toContain('**Manifests are valid.**')
  })

  it('reports apply outcomes with the server message and the returned service', () => {
    const failed = comment(
      makeInput({ command: 'apply', plan: makePlan([updateCheckout]), apply: failedApply })
    )
    expect(failed).toContain('Apply incomplete: 1 applied, 1 adopted, 1 failed, 1 skipped.')
    expect(failed).toMatch(
      /\| Alert \*\*Checkout error spike\*\* \| update \| ❌ failed \| 400 Bad Request: &quot;threshold&quot; must be a positive number · request id <code>req\\_0b1c2d<\/code> \|/
    )
    expect(failed).toContain('**ServiceSettings did not converge.**')
    expect(failed).toContain('> - releaseChannel: default, want slow')
    // Failures come first, so they are the last rows a size cut would take.
    expect(failed.indexOf('❌ failed |')).toBeLessThan(failed.indexOf('✅ applied |'))

    const service = comment(makeInput({ command: 'apply', mode: 'managed', apply: serviceApplied }))
    expect(service).toContain('request id <code>req&#95;7f3a9c2e1b</code></summary>')
    expect(service).toContain('"releaseChannel": "slow"')
    expect(service).toContain('ServiceSettings converged')
  })

  it('says Drift and what drifted', () => {
    const md = comment(
      makeInput({
        command: 'drift',
        plan: makePlan([updateCheckout, createPayments, deleteLegacy, noopOrders])
      })
    )
    expect(md).toMatch(/^### 📝 Drift for stack shop/m)
    expect(md).toContain(
      '**Drift: 3 resources differ from the manifests (1 missing live, 1 changed, 1 not in the manifests).**'
    )
    expect(md).toContain('- Dashboard **Checkout**: 3 fields differ')
    expect(md).toContain('- Dashboard **Payments API**: missing live')
    expect(md).toContain('- Dashboard **Legacy checkout**: live but not in the manifests')
  })
})

describe('markdown report of hostile names and values', () => {
  const md = comment(hostileInput())

  it('matches the snapshot', () => {
    expect(md).toMatchSnapshot()
  })

  it('lets no HTML through', () => {
    expect(md).not.toMatch(/<script/i)
    expect(md).not.toMatch(/<img/i)
    expect(md).not.toMatch(/onerror=alert\(1\)>/)
  })

  it('keeps every <details> whole: the input cannot close one', () => {
    expect(md).toContain('&lt;/details&gt;')
    expectDetailsBalanced(md)
    expect((md.match(/<details>/g) ?? []).length).toBe(5)
  })

  it('pings nobody: every @ is followed by a zero-width space', () => {
    expect(md).toContain('@\u200borg/team')
    expect(md.match(/@(?!\u200b)/g)).toBeNull()
  })

  it('makes no links: no live :// or www., no [text](target)', () => {
    expect(md).not.toContain('://')
    expect(md).not.toMatch(/www\./)
    expect(withoutCodeBlocks(md)).not.toMatch(/(^|[^\\])\]\(/m)
  })

  it('keeps UI links but no other URL when a UI URL is configured', () => {
    const withUi = comment({ ...hostileInput(), uiUrl: 'https://ui.example' })
    const link = '](https://ui.example/dashboards/65f1c0ffee00000000000abc)'
    expect(withUi.match(/\]\(https:\/\/ui\.example[^)]*\)/g)).toEqual([link])
    expect(withUi.split(link).join('')).not.toContain('://')
  })

  it('keeps every table row whole, whatever pipes the text holds', () => {
    expectTablesIntact(md)
  })

  it('cannot close a code block: each fence is longer than any backtick run inside', () => {
    const fences = md.match(/^`{3,}json$/gm) ?? []
    expect(fences.length).toBe(2)
    for (const fence of fences) expect(fence.length - 'json'.length).toBeGreaterThan(4)
    withoutCodeBlocks(md)
  })

  it('keeps the text of names readable', () => {
    expect(md).toContain('&lt;script&gt;alert\\(1\\)&lt;/script&gt;')
    expect(md).toContain('a \\| b \\|\\| c')
    expect(md).toContain(`<b>${'&lt;script&gt;alert&#40;1&#41;&lt;/script&gt;'}`)
    expect(HOSTILE).toContain('</details>')
  })
})

describe('markdown report size limits', () => {
  const errors: Diagnostic[] = [
    ...validationErrors,
    {
      severity: 'error',
      message: 'unknown webhook "pagerduty-prod"',
      file: 'observability/alerts/payments.yaml',
      line: 12,
      column: 9,
      field: 'channel.webhook',
      stage: 'plan'
    }
  ]
  const huge = makeInput({ plan: hugePlan(10_000), diagnostics: errors })
  const detailsCount = huge.plan!.changes.filter(c => c.action !== 'noop').length

  function expectCut(md: string): void {
    expectWellFormed(md)
    // Heading, counts and every error line are always there.
    expect(md).toMatch(/^### ❌ Plan for stack shop \(self-hosted\)$/m)
    expect(md).toContain('| **Total** | 1667 | 3334 | 1667 | 1653 | 1666 | 13 |')
    for (const d of errors) expect(md).toContain(d.message.replace(/"/g, '&quot;'))
    const shown = (md.match(/<details>/g) ?? []).length
    expect(shown).toBeGreaterThan(0)
    expect(shown).toBeLessThan(detailsCount)
    expect(md).toContain(
      `ℹ️ ${detailsCount - shown} more resources are not shown here; see the plan JSON: /home/runner/work/\\_temp/obsdeploy-plan.json`
    )
  }

  it('fits a 10,000-change plan into a comment: counts and errors kept, whole details cut', () => {
    // How fast is for the benchmarks (npm run bench), not for a test on a shared machine.
    const md = renderMarkdown(huge, { maxLength: COMMENT_LIMIT, header: MARKER })
    expect(md.length).toBeLessThanOrEqual(COMMENT_LIMIT)
    expect(md.length).toBeGreaterThan(COMMENT_LIMIT - 3000)
    expect(md.startsWith(MARKER)).toBe(true)
    expectCut(md)
    const changesAt = md.indexOf('#### Changes')
    expect(md.slice(0, changesAt)).toMatchSnapshot('head of the cut comment')
    expect(md.slice(md.lastIndexOf('</details>'))).toMatchSnapshot('end of the cut comment')
  })

  it('fits the same plan into the job summary, counting UTF-8 bytes', () => {
    const md = renderMarkdown(huge, { maxLength: SUMMARY_LIMIT, measure: 'bytes' })
    expect(bytes(md)).toBeLessThanOrEqual(SUMMARY_LIMIT)
    expect(bytes(md)).toBeGreaterThan(SUMMARY_LIMIT - 5000)
    expectCut(md)
  })

  it('measures in the unit asked for: multi-byte names make bytes the tighter limit', () => {
    const byChars = renderMarkdown(huge, { maxLength: 40_000 })
    const byBytes = renderMarkdown(huge, { maxLength: 40_000, measure: 'bytes' })
    expect(byChars.length).toBeLessThanOrEqual(40_000)
    expect(bytes(byChars)).toBeGreaterThan(40_000)
    expect(bytes(byBytes)).toBeLessThanOrEqual(40_000)
  })

  it('counts the header toward the limit', () => {
    const header = `<!-- ${'x'.repeat(5000)} -->\n`
    const md = renderMarkdown(huge, { maxLength: 20_000, header })
    expect(md.length).toBeLessThanOrEqual(20_000)
    expect(md.startsWith(header)).toBe(true)
  })

  it('cuts whole error lines when even the errors do not fit, and says how many', () => {
    const many: Diagnostic[] = Array.from({ length: 3000 }, (_, i) => ({
      severity: i % 3 === 0 ? 'warning' : 'error',
      message: `must be an integer between 1 and 12, got ${i}.5`,
      file: `observability/dashboards/team-${i}.yaml`,
      line: 10 + i,
      column: 12,
      field: 'tiles[0].w',
      stage: 'validate'
    }))
    const plan = hugePlan(500)
    const md = renderMarkdown(makeInput({ plan, diagnostics: many }), { maxLength: 30_000 })
    expect(md.length).toBeLessThanOrEqual(30_000)
    expectWellFormed(md)
    expect(md).toContain('| **Total** |')
    expect(md).not.toContain('<details>')
    expect(md).toContain('#### Problems: 2000 errors, 1000 warnings')
    const shown = md.split('\n').filter(l => l.startsWith('- ❌ ') || l.startsWith('- ⚠️ '))
    expect(shown.every(l => l.startsWith('- ❌ '))).toBe(true)
    // Every line shown is whole: it ends with the message it began.
    expect(shown.every(l => /got \d+\.5$/.test(l))).toBe(true)
    expect(md).toContain(
      `${2000 - shown.length} more errors, 1000 more warnings are not shown here; the run log lists them all.`
    )
    expect(md).toContain(
      `${plan.changes.filter(c => c.action !== 'noop').length} more resources are not shown here`
    )
  })

  it('never exceeds the limit, even one far below any real one', () => {
    for (const limit of [0, 1, 10, 100, 500, 2000]) {
      for (const measure of ['chars', 'bytes'] as const) {
        const md = renderMarkdown(huge, { maxLength: limit, header: MARKER, measure })
        expect(measure === 'bytes' ? bytes(md) : md.length).toBeLessThanOrEqual(limit)
        expectDetailsBalanced(md)
      }
    }
  })

  it('keeps markup whole and the limit kept for any limit and any plan (property)', () => {
    const changes: Change[] = [
      ...hugePlan(150).changes,
      ...hostileInput().plan!.changes,
      ...everyKindOfChange,
      ...hugePlan(150).changes
    ]
    const input = makeInput({
      command: 'apply',
      plan: makePlan(changes),
      apply: failedApply,
      diagnostics: validationErrors
    })
    fc.assert(
      fc.property(
        fc.integer({ min: 8000, max: 200_000 }),
        fc.constantFrom('chars' as const, 'bytes' as const),
        (limit, measure) => {
          const md = renderMarkdown(input, { maxLength: limit, header: MARKER, measure })
          expect(measure === 'bytes' ? bytes(md) : md.length).toBeLessThanOrEqual(limit)
          expectWellFormed(md)
          expect(md).toContain('| **Total** |')
          expect(md).toContain('❌ failed')
        }
      ),
      { numRuns: 40 }
    )
  })
})
