/**
 * The API key's own user, held back from a prune (`deferred: own-user`), under a heading of its own in every
 * report, apart from the records a kept one still uses, and in the verdict's own words.
 */
import { describe, expect, it } from '@jest/globals'
import type { Change } from '../../src/plan/types.js'
import { renderMarkdown } from '../../src/report/markdown.js'
import { renderText } from '../../src/report/text.js'
import { makeInput, makePlan } from './report-fixtures.js'

const change = (c: Omit<Change, 'fields' | 'notes' | 'dependsOn'> & Partial<Change>): Change => ({
  fields: [],
  notes: [],
  dependsOn: [],
  ...c
})

const ownUser = change({
  kind: 'TeamMember',
  name: 'a***n@example.com #3f2a',
  address: 'TeamMember/a***n@example.com #3f2a@650000000000000000000001',
  action: 'delete',
  id: '650000000000000000000001',
  deferred: 'own-user',
  notes: ["not removed: it is the API key's own user"]
})
const usedWebhook = change({
  kind: 'Webhook',
  name: 'Pager',
  address: 'Webhook/Pager',
  action: 'delete',
  id: '65f1c0ffee00000000000555',
  deferred: 'in-use',
  notes: ['still used by Alert "Errors"']
})

const input = (changes: Change[]) => makeInput({ plan: makePlan(changes, { prune: true }) })
const markdown = (changes: Change[]) => renderMarkdown(input(changes), { maxLength: 65_000 })
const text = (changes: Change[]) => renderText(input(changes), { color: false })

describe("the API key's own user, held back from a prune", () => {
  it('has its own heading in the markdown report, apart from what is still in use', () => {
    const md = markdown([ownUser, usedWebhook])
    expect(md).toContain("#### 🔒 Not removed: the API key's own user (1)")
    expect(md).toContain('#### 🔒 Not deleted: still in use (1)')
    const own = md.slice(md.indexOf("Not removed: the API key's own user"))
    expect(own).toMatch(/^[^#]*TeamMember/)
    const inUse = md.slice(
      md.indexOf('Not deleted: still in use'),
      md.indexOf("Not removed: the API key's own user")
    )
    expect(inUse).toContain('Pager')
    expect(inUse).not.toContain('TeamMember')
  })

  it('has its own heading in the text report', () => {
    const out = text([ownUser])
    expect(out).toContain("Not removed: the API key's own user (1):")
    expect(out).not.toContain('still in use')
  })

  it('has its own words in the verdict', () => {
    const md = markdown([ownUser])
    expect(md).toContain("Nothing is applied by this run: 1 kept: the API key's own user.")
    expect(text([ownUser, usedWebhook])).toContain(
      "Nothing is applied by this run: 1 kept: still in use, 1 kept: the API key's own user."
    )
  })
})
