import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import type { Diagnostic } from '../../src/diagnostics.js'
import type { Change } from '../../src/plan/types.js'
import { COMMENT_LIMIT, renderMarkdown, SUMMARY_LIMIT } from '../../src/report/markdown.js'
import { gfmDom } from '../support/gfm.js'
import type { ReportInput } from '../../src/report/input.js'
import {
  createPayments,
  deleteLegacy,
  droppedLowStockAlert,
  everyKindOfChange,
  failedApply,
  HEAD_SHA,
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
function expectDetailsBalanced(markdown: string): void {
  // Inside a fence nothing is a tag: YAML of a hostile value may hold "</details>" as text.
  const md = withoutCodeBlocks(markdown)
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

  it('says how long a long apply takes at the pace, under the verdict, in a plan only', () => {
    const estimate = {
      version: 1,
      requests: 3000,
      parts: { changes: 2000, registry: 1000, dryRuns: 0, rereads: 0 },
      concurrency: 4,
      pace: { requests: 100, windowMs: 60_000 },
      durationMs: 1_839_000
    }
    const plan = makePlan([createPayments], { estimate })
    const md = comment(makeInput({ plan }))
    expect(md).toContain(
      "**Plan: 1 to create.**\n\n⏱️ **Long apply:** about 31 min at 100 requests a minute (about 3,000 requests), paced below the server's rate limit (`rate-limit`).\n\n"
    )
    // Under a minute: nothing to announce. After the apply: nothing to foresee.
    const short = makePlan([createPayments], { estimate: { ...estimate, requests: 90, durationMs: 55_170 } })
    expect(comment(makeInput({ plan: short }))).not.toContain('Long apply')
    expect(comment(makeInput({ command: 'apply', plan }))).not.toContain('Long apply')
  })

  it('says "No changes" when nothing is actionable', () => {
    const md = comment(makeInput({ plan: makePlan([noopOrders, noopOrdersAlert]) }))
    expect(md).toContain('No changes. Live state matches the manifests.')
    expect(md).not.toContain('<details>')
  })

  it('lists deferred changes in their own groups, and says nothing is applied', () => {
    const md = comment(makeInput({ plan: makePlan([prunePendingFunnel, releasePendingService]) }))
    expect(md).toContain(
      '**Nothing is applied by this run: 1 would be deleted with prune, 1 waits for a release.**'
    )
    expect(md).toContain('#### ⏸️ Would be deleted with prune (prune is off) (1)')
    expect(md).toContain('#### ⏳ Waits for a release (1)')
    expect(md).toContain('waits for a release \\(service-update: on-release\\)')
    // The PATCH it will send, as YAML.
    expect(md).toContain('releaseChannel: slow')
    expect(md).not.toContain('"releaseChannel"')
  })

  it('names what is destroyed in the heading, and lists deletes and replaces first', () => {
    const md = comment(
      makeInput({ plan: makePlan([updateCheckout, replaceInventory, droppedLowStockAlert, deleteLegacy]) })
    )
    expect(md).toMatch(
      /^### ⚠️ Plan for stack shop \(self-hosted\): deletes dashboard "Legacy checkout"; replaces dashboard "Inventory"; the server deletes alert "Low stock"$/m
    )
    const order = ['#### 🗑️ To delete (2)', '#### ♻️ To replace (1)', '#### ✏️ To update (1)'].map(h =>
      md.indexOf(h)
    )
    expect(order.every(i => i > 0)).toBe(true)
    expect([...order].sort((x, y) => x - y)).toEqual(order)
    expect(md).toMatch(
      /<summary>🗑️ Alert <b>Low stock<\/b> · deleted by the server with its tile or dashboard/
    )
    expect(md).toMatch(
      /<summary>♻️ Dashboard <b>Inventory<\/b> \(deleted and created again: the id changes\)/
    )
  })

  it('names the manifest line, linked at the head commit, and shows the Checkout errors tile change as YAML', () => {
    const md = comment(makeInput({ plan: makePlan([updateCheckout]) }))
    expect(md).toContain(
      `<a href="https://github.com/acme/shop/blob/${HEAD_SHA}/observability/dashboards/checkout.yaml#L3"><code>observability/dashboards/checkout.yaml:3</code></a>`
    )
    expect(md).toContain(
      '```diff\n  tiles:\n    - name: Errors\n      select[0]:\n-       where: level:error\n+       where: level:error OR level:fatal\n'
    )
  })

  it('links dashboards in the UI from their line, alerts to their dashboard, only for a plain id', () => {
    const ui = 'https://hyperdx.example.com/'
    const plan = makePlan([updateCheckout, updateAlertWithEvidence, createPayments], {
      names: { sources: {}, alertDashboards: { 'Checkout error spike': 'Checkout' } }
    })
    const md = comment(makeInput({ plan, uiUrl: ui }))
    const link = '<a href="https://hyperdx.example.com/dashboards/65f1c0ffee00000000000abc">'
    expect(md).toContain(`${link}open dashboard</a></summary>`)
    expect(md).toContain(`${link}open its dashboard</a></summary>`)
    // Payments API does not exist yet: nothing to link to.
    expect(md.match(/hyperdx\.example\.com/g)).toHaveLength(2)
    expect(comment(makeInput({ plan: makePlan([updateCheckout]) }))).not.toContain('hyperdx.example.com')
    const odd = comment(makeInput({ plan: makePlan([{ ...updateCheckout, id: '../admin' }]), uiUrl: ui }))
    expect(odd).not.toContain('hyperdx.example.com')
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
      /^- ⚠️ \[observability\/dashboards\/checkout\.yaml:21:7\]\(\S+#L21\) <code>tiles\\\[2\\\]\.series<\/code>: warning: /
    )
    expect(md).toContain('#### Problems: 4 errors, 1 warning')
    expect(md).toContain(
      `- ❌ [observability/alerts/checkout.yaml:5:9](https://github.com/acme/shop/blob/${HEAD_SHA}/observability/alerts/checkout.yaml#L5) <code>tile</code>: tile &quot;Errors&quot; is referenced`
    )
  })

  it('renders a validation-only report as the problems and a one-line verdict', () => {
    const md = comment(makeInput({ command: 'validate', diagnostics: validationErrors, planFile: undefined }))
    expect(md).toContain('**Validation failed: 3 errors, 1 warning.**')
    expect(md).not.toContain('<details>')
    const clean = comment(makeInput({ command: 'validate', diagnostics: [], planFile: undefined }))
    expect(clean).toContain('**Manifests are valid.**')
  })

  it('reports each applied resource once, with its outcome, the server message and request id', () => {
    const failed = comment(
      makeInput({ command: 'apply', plan: makePlan([updateCheckout]), apply: failedApply })
    )
    expect(failed).toContain('Apply incomplete: 1 applied, 1 adopted, 1 failed, 1 skipped.')
    expect(failed).toContain(
      '<summary>✏️ Alert <b>Checkout error spike</b> · ❌ failed: 400 Bad Request: &quot;threshold&quot; must be a positive number (request id <code>req&#95;0b1c2d</code>)'
    )
    for (const name of ['Checkout', 'Payments API', 'Checkout error spike', 'shop-prod'])
      expect(failed.match(new RegExp(`<b>${name}</b>`, 'g'))).toHaveLength(1)
    expect(failed).toContain('**Service settings did not converge.**')
    expect(failed).toContain('> - releaseChannel: default, want slow')
    expect(failed).not.toContain('| Resource |')

    const service = comment(makeInput({ command: 'apply', mode: 'managed', apply: serviceApplied }))
    expect(service).toContain('✅ applied (request id <code>req&#95;7f3a9c2e1b</code>)')
    expect(service).toContain('Service settings re-read after the PATCH match the manifests.')
    // Not the service record the PATCH returned: its endpoints and hosts are not the manifests' business.
    expect(service).not.toContain('abc123.eu-west-1')
  })

  it('says Drift and groups what drifted', () => {
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
    expect(md).toContain('#### 🗑️ Live but not in the manifests (1)')
    expect(md).toContain('<summary>✏️ Dashboard <b>Checkout</b> (3 fields differ)')
    expect(md).toContain('#### ➕ Missing live (1)')
  })
})

describe('markdown report of hostile names and values', () => {
  const md = comment(hostileInput())

  it('matches the snapshot', () => {
    expect(md).toMatchSnapshot()
  })

  it('lets no HTML through: outside code blocks nothing is markup, and GitHub renders no element of it', () => {
    const text = withoutCodeBlocks(md)
    expect(text).not.toMatch(/<script/i)
    expect(text).not.toMatch(/<img/i)
    expect(text).not.toMatch(/onerror=alert\(1\)>/)
    const dom = gfmDom(md)
    expect(dom.querySelectorAll('script, img, iframe')).toHaveLength(0)
    // The hostile text is there, as text: in a code block it is inert.
    expect(dom.querySelector('pre code')?.text).toContain('<script>alert(1)</script>')
  })

  it('keeps every <details> whole: the input cannot close one', () => {
    expect(md).toContain('&lt;/details&gt;')
    expectDetailsBalanced(md)
    // One per resource: the service the PATCH returned is no longer shown.
    expect((md.match(/<details>/g) ?? []).length).toBe(4)
  })

  it('pings nobody: every @ outside code is followed by a zero-width space', () => {
    expect(md).toContain('@\u200borg/team')
    expect(withoutCodeBlocks(md).match(/@(?!\u200b)/g)).toBeNull()
  })

  it('keeps names in code blocks as they are, so one copied from there is the real one', () => {
    const code = gfmDom(md)
      .querySelectorAll('pre code')
      .map(c => c.text)
    expect(code.some(text => text.includes(HOSTILE))).toBe(true)
    expect(code.join('\n')).not.toContain('\u200b')
  })

  /** Every link target in the text: markdown `](url)` and HTML `href="url"`. */
  const targets = (text: string) => [
    ...[...withoutCodeBlocks(text).matchAll(/(?:^|[^\\])\]\(([^)]*)\)/gm)].map(m => m[1]!),
    ...[...text.matchAll(/href="([^"]*)"/g)].map(m => m[1]!)
  ]
  const ours = (url: string) => url.startsWith('https://github.com/acme/shop/')

  it('makes no links but ours: no live :// or www. in its text (code blocks link nothing)', () => {
    const text = withoutCodeBlocks(md)
      .replace(/\]\(https:\/\/github\.com\/acme\/shop\/[^)]*\)/g, '](…)')
      .replace(/href="[^"]*"/g, '')
    expect(text).not.toContain('://')
    expect(text).not.toMatch(/www\./)
    // The commit and the run; a manifest path with `//` in it gets no link at all.
    expect(targets(md)).toHaveLength(2)
    expect(targets(md).every(ours)).toBe(true)
    expect(md).not.toContain('/blob/')
  })

  it('keeps UI links but no other URL when a UI URL is configured', () => {
    const withUi = comment({ ...hostileInput(), uiUrl: 'https://ui.example' })
    const ui = targets(withUi).filter(t => !ours(t))
    expect(ui).toEqual(['https://ui.example/dashboards/65f1c0ffee00000000000abc'])
  })

  it('keeps every table row whole, whatever pipes the text holds', () => {
    expectTablesIntact(md)
  })

  it('cannot close a code block: each fence is longer than any backtick run inside', () => {
    const fences = md.match(/^`{3,}(yaml|diff)$/gm) ?? []
    expect(fences.length).toBe(3)
    for (const fence of fences) expect(fence.replace(/[a-z]+$/, '').length).toBeGreaterThan(4)
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

  /** How many resources of a group the text shows (whole or as their one line). */
  const shownIn = (md: string, icon: string) => (md.match(new RegExp(`<summary>${icon} `, 'g')) ?? []).length

  function expectCut(md: string): void {
    expectWellFormed(md)
    // The heading, the counts line and every error are always there.
    expect(md).toMatch(/^### ❌ Plan for stack shop \(self-hosted\): deletes 1653 dashboards \(/m)
    expect(md).toContain(
      '**Plan: 1653 to delete, 1667 to replace, 3334 to update, 1667 to create; deferred: 13 would be deleted with prune. 4 errors below.**'
    )
    for (const d of errors.filter(e => e.severity === 'error'))
      expect(md).toContain(d.message.replace(/"/g, '&quot;'))
    const shown = (md.match(/<details>/g) ?? []).length
    expect(shown).toBeGreaterThan(0)
    expect(shown).toBeLessThan(detailsCount)
    // Cut order: creates go first, deletes last; each group still says how many it had.
    expect(shownIn(md, '🗑️')).toBeGreaterThan(0)
    expect(shownIn(md, '➕')).toBeLessThanOrEqual(shownIn(md, '✏️'))
    expect(shownIn(md, '✏️')).toBeLessThanOrEqual(shownIn(md, '🗑️'))
    expect(md).toContain('#### ➕ To create (1667)')
    expect(md).toMatch(
      /ℹ️ \d+ more resources in this group are not shown here, to fit GitHub's size limit; the plan file \(the `plan-file` output\) lists every change\./
    )
    // Never a path on the runner.
    expect(md).not.toContain('/home/runner')
  }

  it('fits a 10,000-change plan into a comment: counts, errors and deletes kept, creates cut first', () => {
    const md = renderMarkdown(huge, { maxLength: COMMENT_LIMIT, header: MARKER })
    expect(md.length).toBeLessThanOrEqual(COMMENT_LIMIT)
    expect(md.length).toBeGreaterThan(COMMENT_LIMIT - 3000)
    expect(md.startsWith(MARKER)).toBe(true)
    expectCut(md)
    // Only deletes fit, as their one line each: every create, update and replace is cut.
    expect(shownIn(md, '➕')).toBe(0)
    expect(md).toContain("The diff is left out to fit GitHub's size limit; the plan file has it.")
    const deletesAt = md.indexOf('#### 🗑️ To delete')
    expect(md.slice(0, deletesAt)).toMatchSnapshot('head of the cut comment')
    expect(md.slice(md.lastIndexOf('</details>'))).toMatchSnapshot('end of the cut comment')
  })

  it('fits the same plan into the job summary, counting UTF-8 bytes', () => {
    const md = renderMarkdown(huge, { maxLength: SUMMARY_LIMIT, measure: 'bytes' })
    expect(bytes(md)).toBeLessThanOrEqual(SUMMARY_LIMIT)
    expect(bytes(md)).toBeGreaterThan(SUMMARY_LIMIT - 5000)
    expectCut(md)
    // A megabyte holds every delete, and most replaces.
    expect(shownIn(md, '🗑️')).toBe(1653)
    expect(shownIn(md, '♻️')).toBeGreaterThan(1000)
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
    expect(md).toContain('**Plan: 82 to delete, 83 to replace, 167 to update, 84 to create;')
    expect(md).not.toContain('<details>')
    expect(md).toContain('#### Problems: 2000 errors, 1000 warnings')
    const shown = md.split('\n').filter(l => l.startsWith('- ❌ ') || l.startsWith('- ⚠️ '))
    expect(shown.length).toBeGreaterThan(10)
    expect(shown.every(l => l.startsWith('- ❌ '))).toBe(true)
    // Every line shown is whole: it ends with the message it began.
    expect(shown.every(l => /got \d+\.5$/.test(l))).toBe(true)
    expect(md).toContain(
      `${2000 - shown.length} more problems (${2000 - shown.length} messages) are not shown here`
    )
    expect(md).toContain('1000 more problems (1000 messages) are not shown here')
    expect(md).toContain('#### 🗑️ To delete (82)\n\nℹ️ 82 more resources in this group are not shown here')
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
          expect(md).toContain('**Apply incomplete: 1 applied, 1 adopted, 1 failed, 1 skipped.')
        }
      ),
      { numRuns: 40 }
    )
  })
})
