/**
 * The report as GitHub shows it: the markdown rendered by a GFM parser (micromark with its GFM
 * extension), then read as a DOM. Each test asserts what a reviewer sees, not the characters we wrote.
 */
import { describe, expect, it } from '@jest/globals'
import type { Diagnostic } from '../../src/diagnostics.js'
import type { Change } from '../../src/plan/types.js'
import type { ReportInput } from '../../src/report/input.js'
import { COMMENT_LIMIT, renderMarkdown } from '../../src/report/markdown.js'
import { gfmDom } from '../support/gfm.js'
import {
  createPayments,
  deleteLegacy,
  droppedLowStockAlert,
  everyKindOfChange,
  HEAD_SHA,
  hugePlan,
  makeInput,
  makePlan,
  noopOrders,
  noopOrdersAlert,
  prunePendingFunnel,
  replaceInventory,
  SERVICE,
  updateCheckout
} from './report-fixtures.js'

const render = (input: ReportInput, maxLength = COMMENT_LIMIT) =>
  gfmDom(renderMarkdown(input, { maxLength, header: '<!-- obsdeploy:sticky stack=shop job=CI -->' }))
const heading = (input: ReportInput) => render(input).querySelector('h3')!.text

/** A managed plan that holds back the removal of IP allow-list entries until a release. */
const ipRemovalWaiting: Change = {
  kind: 'ServiceSettings',
  name: 'analytics prod',
  address: 'ServiceSettings/service',
  action: 'update',
  id: SERVICE,
  source: { file: 'observability/service.yaml', line: 3, column: 1 },
  deferred: 'release',
  fields: [
    { path: 'ipAccessList["10.0.0.0/8"]', after: 'office' },
    { path: 'ipAccessList["198.51.100.17"]', before: 'CI runner' },
    { path: 'ipAccessList["203.0.113.0/24"]', before: 'Office network' },
    { path: 'releaseChannel', before: 'default', after: 'slow' }
  ],
  notes: [],
  dependsOn: []
}

describe('the heading a reviewer reads first', () => {
  it('is ✅ only when nothing differs', () => {
    expect(heading(makeInput({ plan: makePlan([noopOrders, noopOrdersAlert]) }))).toBe(
      '✅ Plan for stack shop (self-hosted)'
    )
  })

  it('is 📝 for a plan that only creates and updates', () => {
    expect(heading(makeInput({ plan: makePlan([createPayments, updateCheckout]) }))).toBe(
      '📝 Plan for stack shop (self-hosted)'
    )
  })

  it('is ⚠️ and names what is destroyed when anything is deleted, replaced or dropped by the server', () => {
    const text = heading(
      makeInput({ plan: makePlan([createPayments, deleteLegacy, replaceInventory, droppedLowStockAlert]) })
    )
    expect(text).toBe(
      '⚠️ Plan for stack shop (self-hosted): deletes dashboard "Legacy checkout"; replaces dashboard "Inventory"; the server deletes alert "Low stock"'
    )
  })

  it('counts seven deletes and names the first three', () => {
    const deletes = Array.from({ length: 7 }, (_, i) => ({
      ...deleteLegacy,
      name: `Legacy ${i + 1}`,
      address: `Dashboard/Legacy ${i + 1}`
    }))
    expect(heading(makeInput({ plan: makePlan([createPayments, ...deletes]) }))).toBe(
      '⚠️ Plan for stack shop (self-hosted): deletes 7 dashboards ("Legacy 1", "Legacy 2", "Legacy 3", +4 more)'
    )
  })

  it('is ⚠️ for a managed plan that holds back a removal of IP allow-list entries', () => {
    const input = makeInput({ mode: 'managed', plan: makePlan([ipRemovalWaiting], { mode: 'managed' }) })
    expect(heading(input)).toBe(
      '⚠️ Plan for stack shop (managed): on release removes 2 IP allow-list entries ("198.51.100.17", "203.0.113.0/24")'
    )
  })

  it('is not ⚠️ for a delete that waits for prune: nothing is destroyed by it', () => {
    expect(heading(makeInput({ plan: makePlan([prunePendingFunnel]) }))).toBe(
      '📝 Plan for stack shop (self-hosted)'
    )
  })

  it('is ❌ when the plan has errors', () => {
    const error: Diagnostic = { severity: 'error', message: 'no data source named "Logz"', stage: 'plan' }
    expect(heading(makeInput({ plan: makePlan([deleteLegacy]), diagnostics: [error] }))).toMatch(/^❌ Plan/)
  })
})

describe('the counts and the groups', () => {
  const dom = render(makeInput({ plan: makePlan(everyKindOfChange) }))

  it('says the counts in one line, destructive first, and has no counts table', () => {
    expect(dom.querySelector('p strong')!.text).toBe(
      'Plan: 2 to delete, 1 to replace, 2 to update, 1 to create; deferred: 1 would be deleted with prune, 1 waits for a release.'
    )
    expect(dom.querySelectorAll('th').map(th => th.text)).not.toContain('Kind')
  })

  it('groups the resources by action: delete, replace, update, create, then the deferred ones', () => {
    expect(dom.querySelectorAll('h4').map(h => h.text)).toEqual([
      '🗑️ To delete (2)',
      '♻️ To replace (1)',
      '✏️ To update (2)',
      '➕ To create (1)',
      '⏸️ Would be deleted with prune (prune is off) (1)',
      '⏳ Waits for a release (1)'
    ])
  })

  it('lists each resource once, under its group', () => {
    const summaries = dom.querySelectorAll('details > summary').map(s => s.text)
    expect(summaries).toHaveLength(8)
    expect(summaries.filter(s => s.includes('Legacy checkout'))).toHaveLength(1)
  })
})

describe('values a human reads', () => {
  it('never puts minified JSON in a table cell', () => {
    let seen = 0
    for (const input of [
      makeInput({ plan: makePlan(everyKindOfChange) }),
      makeInput({ plan: hugePlan(300) }),
      makeInput({ mode: 'managed', plan: makePlan([ipRemovalWaiting], { mode: 'managed' }) })
    ]) {
      // The value cells: a row is the field path, then its value before and after.
      const cells = render(input, 1_000_000)
        .querySelectorAll('tr')
        .flatMap(tr => tr.querySelectorAll('td').slice(1))
      seen += cells.length
      for (const cell of cells) expect(cell.text).not.toMatch(/^\s*[[{]|[{[]"|":/)
    }
    expect(seen).toBeGreaterThan(5)
  })

  it('shows a tile added or removed as such, in a diff block of YAML', () => {
    const change: Change = {
      ...updateCheckout,
      fields: [
        {
          path: 'tiles["Slow requests"]',
          after: {
            x: 6,
            y: 0,
            w: 6,
            h: 3,
            displayType: 'line',
            sourceId: 'src1',
            select: [{ aggFn: 'count' }]
          }
        },
        { path: 'tiles["Old"]', before: { x: 0, y: 0, w: 6, h: 3, displayType: 'number' } }
      ]
    }
    const plan = makePlan([change], {
      names: { sources: { src1: 'Logs' }, alertDashboards: {} }
    })
    const dom = render(makeInput({ plan }))
    expect(dom.querySelectorAll('details li').map(li => li.text)).toEqual([
      'tile added: Slow requests',
      'tile removed: Old'
    ])
    const diff = dom.querySelector('code.language-diff')!.text
    expect(diff).toContain('+   - name: Slow requests\n+     x: 6\n')
    // Names, not ids: the data source reads as in the manifest.
    expect(diff).toContain('+     source: Logs')
    expect(diff).not.toContain('src1')
    expect(diff).toContain('-   - name: Old\n')
  })

  it('shows a create as the YAML that will be created, in one block', () => {
    const dom = render(makeInput({ plan: makePlan([createPayments]) }))
    const blocks = dom.querySelectorAll('details pre code')
    expect(blocks).toHaveLength(1)
    expect(blocks[0]!.getAttribute('class')).toBe('language-yaml')
    expect(blocks[0]!.text).toContain('tiles:\n  - name: Requests\n    x: 0\n')
    expect(dom.text).not.toContain('(absent)')
  })

  it('keeps one backslash in a Lucene query', () => {
    const change: Change = {
      ...updateCheckout,
      fields: [
        { path: 'tiles["Errors"]', before: { where: 'path:\\/api' }, after: { where: 'path:\\/api\\/v2' } }
      ]
    }
    const dom = render(makeInput({ plan: makePlan([change]) }))
    expect(dom.querySelector('code.language-diff')!.text).toContain('where: path:\\/api\\/v2')
    expect(dom.text).not.toContain('\\\\')
  })
})

describe('links and where the run is', () => {
  it('links the commit and the workflow run, with the time, and names no path on the runner', () => {
    const input = makeInput({
      plan: makePlan([updateCheckout]),
      planFile: '/home/runner/work/_temp/plan.json'
    })
    const dom = render(input)
    const hrefs = dom.querySelectorAll('a').map(a => a.getAttribute('href'))
    expect(hrefs).toContain(`https://github.com/acme/shop/commit/${HEAD_SHA}`)
    expect(hrefs).toContain('https://github.com/acme/shop/actions/runs/1234567890')
    const footer = dom.querySelector('sub')!
    expect(footer.text).toContain(`commit ${HEAD_SHA.slice(0, 7)}`)
    expect(footer.text).toContain('2025-03-14 09:27 UTC')
    expect(dom.toString()).not.toMatch(/\/home\/runner|_temp|RUNNER_TEMP/)
  })

  it('links a re-run to its attempt', () => {
    const input = makeInput({ plan: makePlan([updateCheckout]) })
    const hrefs = render({ ...input, github: { ...input.github!, runAttempt: '2' } })
      .querySelectorAll('a')
      .map(a => a.getAttribute('href'))
    expect(hrefs).toContain('https://github.com/acme/shop/actions/runs/1234567890/attempts/2')
  })

  it('links each manifest line to the file at the head commit', () => {
    const dom = render(makeInput({ plan: makePlan([updateCheckout]) }))
    const link = dom.querySelector('summary a')!
    expect(link.getAttribute('href')).toBe(
      `https://github.com/acme/shop/blob/${HEAD_SHA}/observability/dashboards/checkout.yaml#L3`
    )
    expect(link.text).toBe('observability/dashboards/checkout.yaml:3')
  })

  it('encodes a manifest path with spaces and non-ASCII letters once, in the summary and in problems', () => {
    const file = 'my team/my board ü.yaml'
    const href = `https://github.com/acme/shop/blob/${HEAD_SHA}/my%20team/my%20board%20%C3%BC.yaml#L3`
    const problem: Diagnostic = {
      severity: 'error',
      message: 'bad',
      file,
      line: 3,
      column: 1,
      stage: 'validate'
    }
    const dom = render(
      makeInput({
        plan: makePlan([{ ...updateCheckout, source: { file, line: 3, column: 1 } }]),
        diagnostics: [problem]
      })
    )
    expect(dom.querySelector('summary a')!.getAttribute('href')).toBe(href)
    expect(dom.querySelector('li a')!.getAttribute('href')).toBe(href)
  })

  it('after an apply, links every created or updated dashboard, and alerts to their dashboard', () => {
    const alertCreate: Change = {
      kind: 'Alert',
      name: 'Payments errors',
      address: 'Alert/Payments errors',
      action: 'create',
      source: { file: 'observability/dashboards/payments.yaml', line: 20, column: 1 },
      fields: [{ path: 'threshold', after: 5 }],
      notes: [],
      dependsOn: []
    }
    const plan = makePlan([createPayments, updateCheckout, alertCreate, deleteLegacy], {
      command: 'apply',
      names: { sources: {}, alertDashboards: { 'Payments errors': 'Payments API' } }
    })
    const outcome = (c: Change, id?: string) => ({
      address: c.address,
      kind: c.kind,
      name: c.name,
      action: c.action,
      status: 'applied' as const,
      id: id ?? c.id
    })
    const dom = render(
      makeInput({
        command: 'apply',
        uiUrl: 'https://hyperdx.example.com',
        plan,
        apply: {
          outcomes: [
            outcome(createPayments, 'new0000000000000000000001'),
            outcome(updateCheckout),
            outcome(alertCreate, 'alert000000000000000000001'),
            outcome(deleteLegacy)
          ],
          complete: true
        }
      })
    )
    const uiLinks = (name: string) =>
      dom
        .querySelectorAll('summary')
        .find(s => s.querySelector('b')?.text === name)!
        .querySelectorAll('a')
        .map(a => a.getAttribute('href'))
        .filter(h => h?.startsWith('https://hyperdx.example.com'))
    expect(uiLinks('Payments API')).toEqual([
      'https://hyperdx.example.com/dashboards/new0000000000000000000001'
    ])
    expect(uiLinks('Checkout')).toEqual(['https://hyperdx.example.com/dashboards/65f1c0ffee00000000000abc'])
    expect(uiLinks('Payments errors')).toEqual([
      'https://hyperdx.example.com/dashboards/new0000000000000000000001'
    ])
    // A deleted dashboard has no page left to open.
    expect(uiLinks('Legacy checkout')).toEqual([])
    expect(dom.querySelector('p strong')!.text).toBe('Applied: 1 deleted, 1 updated, 2 created.')
  })
})

describe('problems', () => {
  const same = (i: number): Diagnostic => ({
    severity: 'error',
    message: 'must be one of count, sum, avg, min, max, quantile, got "p95"',
    file: 'observability/dashboards/latency.yaml',
    line: 10 + i * 9,
    column: 17,
    field: `tiles[${i}].series[0].aggFn`,
    stage: 'validate'
  })

  it('groups identical messages: one line, a count, the first places, the rest collapsed', () => {
    const other: Diagnostic = {
      ...same(0),
      message: 'must be between 1 and 24',
      field: 'tiles[0].w',
      line: 8
    }
    const dom = render(
      makeInput({
        command: 'validate',
        planFile: undefined,
        diagnostics: [...Array.from({ length: 21 }, (_, i) => same(i)), other]
      })
    )
    const items = dom.querySelectorAll('ul > li')
    expect(items).toHaveLength(2)
    const group = items.find(li => li.text.includes('p95'))!
    expect(group.text).toContain('21 places')
    expect(group.querySelectorAll(':scope > a')).toHaveLength(3)
    const collapsed = group.querySelector('details')!
    expect(collapsed.querySelector('summary')!.text).toBe('18 more places')
    expect(collapsed.querySelectorAll('a')).toHaveLength(18)
    expect(collapsed.querySelector('a')!.getAttribute('href')).toBe(
      `https://github.com/acme/shop/blob/${HEAD_SHA}/observability/dashboards/latency.yaml#L37`
    )
    expect(dom.querySelector('h4')!.text).toBe('Problems: 22 errors')
  })
})

describe('the cut to fit GitHub', () => {
  it('keeps the deletes and the errors when the creates and updates do not fit', () => {
    const plan = hugePlan(600)
    const error: Diagnostic = { severity: 'error', message: 'unknown webhook "pagerduty"', stage: 'plan' }
    const dom = render(makeInput({ plan, diagnostics: [error] }), 40_000)
    const deletes = plan.changes.filter(c => c.action === 'delete' && !c.deferred)
    const summaries = dom.querySelectorAll('summary').map(s => s.text)
    for (const d of deletes) expect(summaries.some(s => s.includes(d.name))).toBe(true)
    expect(summaries.some(s => s.startsWith('➕'))).toBe(false)
    expect(dom.text).toContain('unknown webhook "pagerduty"')
    expect(dom.querySelectorAll('h4').map(h => h.text)).toContain('➕ To create (100)')
  })
})

describe('names that would link, ping or hide something', () => {
  const named = (name: string) => render(makeInput({ plan: makePlan([{ ...updateCheckout, name }]) }))

  it('links no issue from a name: #123, owner/repo#7 and GH-12 in a <summary> stay text', () => {
    const summary = named('Fixes #123, acme/shop#7 and GH-12').querySelector('summary')!
    expect(summary.text).toContain('Fixes #\u200b123, acme/shop#\u200b7 and GH-\u200b12')
    expect(summary.text).not.toMatch(/#\d|GH-\d/)
  })

  it('shows a bidirectional override or a zero-width space in a name, in the heading, the summary and code', () => {
    const dom = render(
      makeInput({
        plan: makePlan([
          { ...deleteLegacy, name: 'Legacy\u202Egpj.exe' },
          {
            ...createPayments,
            name: 'Pay\u200Bments',
            fields: [...createPayments.fields, { path: 'name', after: 'Pay\u200Bments' }]
          }
        ])
      })
    )
    expect(dom.text).not.toContain('\u202E')
    expect(dom.text).not.toContain('Pay\u200Bments')
    expect(dom.querySelector('h3')!.text).toContain('Legacy\\u{202E}gpj.exe')
    expect(
      dom
        .querySelectorAll('summary')
        .map(s => s.text)
        .join('\n')
    ).toContain('Pay\\u{200B}ments')
    const code = dom.querySelectorAll('pre code').map(c => c.text)
    expect(code.join('\n')).toContain('Pay\\u{200B}ments')
  })
})
