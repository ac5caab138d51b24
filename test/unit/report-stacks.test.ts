/**
 * The report of a run over many stacks: one heading that names the stacks that destroy something, a table
 * of the stacks, the run's own problems, then a section per stack that is that stack's own report. One
 * size budget spans every section: creates' diffs go first, and every stack's deletes and errors last.
 */
import { describe, expect, it } from '@jest/globals'
import type { Diagnostic } from '../../src/diagnostics.js'
import type { Change } from '../../src/plan/types.js'
import type { ReportInput, StacksReportInput } from '../../src/report/input.js'
import { COMMENT_LIMIT, renderMarkdown, renderStacksMarkdown } from '../../src/report/markdown.js'
import { stacksLabelOf } from '../../src/report/model.js'
import { renderStacksText } from '../../src/report/text.js'
import { gfmDom } from '../support/gfm.js'
import {
  createPayments,
  deleteLegacy,
  hugePlan,
  makeInput,
  makePlan,
  noopOrders,
  prunePendingFunnel,
  updateCheckout
} from './report-fixtures.js'

const section = (stack: string, changes: Change[], extra: Partial<ReportInput> = {}): ReportInput =>
  makeInput({
    stack,
    folder: `observability/${stack}`,
    plan: makePlan(changes, { stack, ownershipTag: `obsdeploy:${stack}` }),
    planFile: undefined,
    ...extra
  })

function stacksInput(stacks: ReportInput[], extra: Partial<StacksReportInput> = {}): StacksReportInput {
  const base = makeInput()
  return {
    command: 'plan',
    mode: 'self-hosted',
    reason: 'the stacks the pull request changes',
    skipped: ['billing'],
    diagnostics: [],
    stacks,
    planFile: '/home/runner/work/_temp/obsdeploy-plan.json',
    serviceGate: base.serviceGate,
    trigger: base.trigger,
    github: base.github,
    time: base.time,
    ...extra
  }
}

const md = (input: StacksReportInput, maxLength = COMMENT_LIMIT) =>
  renderStacksMarkdown(input, { maxLength, header: '<!-- marker -->' })

describe('the markdown report of many stacks', () => {
  const payments = section('payments', [deleteLegacy, updateCheckout])
  const search = section('search', [createPayments])
  const quiet = section('web', [noopOrders])

  it('leads with one heading that names each stack that destroys something, then a table of the stacks', () => {
    const text = md(stacksInput([payments, search, quiet]))
    const [marker, heading] = text.split('\n')
    expect(marker).toBe('<!-- marker -->')
    expect(heading).toBe(
      '### ⚠️ Plan for 3 stacks (self-hosted): stack payments deletes dashboard "Legacy checkout"'
    )
    expect(text).toContain('Stacks run: the stacks the pull request changes. Not run: billing.')
    const rows = [...gfmDom(text).querySelectorAll('table')[0]!.querySelectorAll('tbody tr')].map(tr =>
      tr.querySelectorAll('td').map(td => td.text.trim())
    )
    expect(rows).toEqual([
      ['⚠️ payments', 'observability/payments', 'Plan: 1 to delete, 1 to update.'],
      ['📝 search', 'observability/search', 'Plan: 1 to create.'],
      ['✅ web', 'observability/web', 'No changes. Live state matches the manifests.']
    ])
  })

  it("gives each stack the section its own report would have, in the run's order, and one footer", () => {
    const text = md(stacksInput([payments, search, quiet]))
    const alone = (input: ReportInput) =>
      renderMarkdown(input, { maxLength: COMMENT_LIMIT })
        .replace(/<sub>obsdeploy[\s\S]*$/, '')
        .trim()
    const at = [payments, search, quiet].map(s => text.indexOf(alone(s)))
    expect(at.every(i => i > 0)).toBe(true)
    expect([...at].sort((a, b) => a - b)).toEqual(at)
    expect(text.match(/<sub>obsdeploy /g)).toHaveLength(1)
    expect(text.trimEnd().endsWith('</sub>')).toBe(true)
  })

  it("lists the run's own problems before the sections, and fails the heading on an error", () => {
    const layout: Diagnostic = {
      severity: 'error',
      stage: 'validate',
      message: 'belongs to no stack',
      file: 'observability/loose.yaml',
      line: 1,
      column: 1
    }
    const text = md(stacksInput([search], { diagnostics: [layout] }))
    expect(text.split('\n')[1]).toBe('### ❌ Plan for 1 stack (self-hosted)')
    expect(text.indexOf('belongs to no stack')).toBeLessThan(text.indexOf('Plan for stack search'))
    expect(text).toContain(
      `[observability/loose.yaml:1:1](https://github.com/acme/shop/blob/${makeInput().github!.sha}/observability/loose.yaml#L1)`
    )
  })

  it('says so when no stack is run, and when the layout stopped the run', () => {
    const none = md(stacksInput([], { skipped: ['payments', 'search'] }))
    expect(none).toContain('### ✅ Plan for no stack (self-hosted)')
    expect(none).toContain(
      '**Nothing to plan: no stack is among the stacks the pull request changes.** Not run: payments, search.'
    )
    expect(none).not.toContain('| Stack |')
    const stopped = md(
      stacksInput([], {
        diagnostics: [{ severity: 'error', stage: 'validate', message: 'stack "a" is already defined' }]
      })
    )
    expect(stopped).toContain('### ❌ Plan for no stack (self-hosted)')
    expect(stopped).toContain('**Plan stopped before any stack: the layout of stacks has errors.**')
  })

  it('fits many large stacks into one comment, cutting diffs of creates and updates before any delete', () => {
    const big = (stack: string) => section(stack, hugePlan(400).changes)
    const input = stacksInput(['a', 'b', 'c', 'd'].map(big))
    const text = md(input)
    expect(text.length).toBeLessThanOrEqual(COMMENT_LIMIT)
    // Every stack keeps its section heading and every one of its deletes.
    for (const s of input.stacks) {
      expect(text).toContain(`Plan for stack ${s.stack} (self-hosted)`)
      for (const c of s.plan!.changes.filter(c => c.action === 'delete' && !c.deferred))
        expect(text).toContain(`<b>${c.name.replace(/&/g, '&amp;')}</b>`)
    }
    expect(text).toMatch(/more resources in this group are not shown here/)
    // What was cut is whole: every <details> that opens, closes.
    expect(text.match(/<details>/g)?.length).toBe(text.match(/<\/details>/g)?.length)
  })

  it('labels the pull request by the loudest stack', () => {
    expect(stacksLabelOf(stacksInput([quiet]))).toBe('no-changes')
    expect(stacksLabelOf(stacksInput([quiet, search]))).toBe('changes')
    expect(stacksLabelOf(stacksInput([search, payments, quiet]))).toBe('destroy')
    expect(stacksLabelOf(stacksInput([section('x', [prunePendingFunnel])]))).toBe('changes')
  })
})

describe('the terminal report of many stacks', () => {
  it("says which stacks ran, then each stack's own report, then where the plan file is", () => {
    const text = renderStacksText(
      stacksInput([section('payments', [deleteLegacy]), section('search', [noopOrders])]),
      { color: false }
    )
    const lines = text.split('\n')
    expect(lines.slice(0, 2)).toEqual([
      'obsdeploy plan for 2 stacks (self-hosted)',
      'Stacks run: the stacks the pull request changes; not run: billing'
    ])
    expect(text.indexOf('obsdeploy plan for stack payments')).toBeLessThan(
      text.indexOf('obsdeploy plan for stack search')
    )
    expect(text).toContain('WARNING: deletes dashboard: "Legacy checkout"')
    expect(lines.filter(l => l.startsWith('Plan JSON:'))).toEqual([
      'Plan JSON: /home/runner/work/_temp/obsdeploy-plan.json'
    ])
    expect(text.endsWith('\n')).toBe(true)
    // eslint-disable-next-line no-control-regex -- no escape codes without colour
    expect(text).not.toMatch(/\u001b/)
  })
})
