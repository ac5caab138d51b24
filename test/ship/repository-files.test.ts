/**
 * The files a Marketplace reviewer and a contributor look for: a security policy with a private way to
 * report and the scope this action has, code owners for what runs in users' workflows, contribution notes,
 * and issue forms GitHub can render.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from '@jest/globals'
import picomatch from 'picomatch'
import { parse } from 'yaml'

const root = fileURLToPath(new URL('../../', import.meta.url))
const read = (file: string) => readFileSync(path.join(root, file), 'utf8')
const ADVISORY_URL = 'https://github.com/observability-deploy/observability-deploy/security/advisories/new'

describe('SECURITY.md', () => {
  const policy = read('SECURITY.md')

  it('says how to report privately', () => {
    expect(policy).toContain(ADVISORY_URL)
    expect(policy).toMatch(/do not open a public issue/i)
  })

  it('puts token handling, the PR comment, symlinked manifests and secrets in logs in scope', () => {
    const scope = policy.slice(policy.indexOf('## In scope'), policy.indexOf('## Out of scope'))
    for (const topic of [/api-key/, /github-token/, /comment/, /symbolic link/, /logs?\b/])
      expect({ topic: String(topic), found: topic.test(scope) }).toEqual({
        topic: String(topic),
        found: true
      })
  })
})

describe('.github/CODEOWNERS', () => {
  /** The rules in order, as gitignore-style patterns turned into globs (the forms this file uses). */
  const rules = read('.github/CODEOWNERS')
    .split('\n')
    .map(line => line.replace(/#.*/, '').trim())
    .filter(Boolean)
    .map(line => {
      const [pattern, ...owners] = line.split(/\s+/)
      expect(pattern).toMatch(/^(\*|\/[\w./-]+)$/)
      const glob =
        pattern === '*'
          ? '**'
          : pattern.endsWith('/')
            ? `${pattern.slice(1)}**`
            : [pattern.slice(1), `${pattern.slice(1)}/**`]
      return { pattern, owners, match: picomatch(glob, { dot: true }) }
    })
  /** The owners of a path: those of the last rule that matches it, as GitHub reads the file. */
  const ownersOf = (file: string) => rules.filter(rule => rule.match(file)).at(-1)?.owners ?? []

  it('gives the bundle, the action metadata and the workflows an owner', () => {
    for (const file of ['dist/index.js', 'dist/cli/index.js', 'action.yml', '.github/workflows/ci.yml'])
      expect({ file, owners: ownersOf(file) }).toEqual({
        file,
        owners: [expect.stringMatching(/^@[\w-]+\/[\w-]+$/)]
      })
  })

  it('names only paths that exist', () => {
    const missing = rules.filter(rule => rule.pattern !== '*' && !existsSync(path.join(root, rule.pattern)))
    expect(missing.map(rule => rule.pattern)).toEqual([])
  })
})

describe('issue forms', () => {
  interface Field {
    type: string
    id?: string
    attributes: { label?: string; value?: string; options?: string[] }
    validations?: { required?: boolean }
  }
  const forms = readdirSync(path.join(root, '.github/ISSUE_TEMPLATE')).filter(file => file !== 'config.yml')

  it('has a bug report and a feature request form', () => {
    expect(forms.sort()).toEqual(['bug_report.yml', 'feature_request.yml'])
  })

  it.each(forms)('%s has a name, a description and labelled fields, some of them required', file => {
    const form = parse(read(`.github/ISSUE_TEMPLATE/${file}`)) as {
      name: string
      description: string
      body: Field[]
    }
    expect(form).toMatchObject({ name: expect.any(String), description: expect.any(String) })
    const fields = form.body.filter(field => field.type !== 'markdown')
    for (const field of fields) {
      expect(['input', 'textarea', 'dropdown', 'checkboxes']).toContain(field.type)
      expect(field).toMatchObject({
        id: expect.stringMatching(/^[\w-]+$/),
        attributes: { label: expect.any(String) }
      })
      if (field.type === 'dropdown') expect(field.attributes.options?.length).toBeGreaterThan(1)
    }
    expect(new Set(fields.map(field => field.id)).size).toBe(fields.length)
    expect(fields.filter(field => field.validations?.required).length).toBeGreaterThan(0)
  })

  it('sends security reports to the private form instead of a blank issue', () => {
    const config = parse(read('.github/ISSUE_TEMPLATE/config.yml')) as {
      blank_issues_enabled: boolean
      contact_links: { name: string; url: string; about: string }[]
    }
    expect(config.blank_issues_enabled).toBe(false)
    expect(config.contact_links).toEqual([
      expect.objectContaining({ url: ADVISORY_URL, about: expect.any(String) })
    ])
  })
})

describe('CONTRIBUTING.md', () => {
  it('starts from the README commands and points at the security policy and the release notes', () => {
    const guide = read('CONTRIBUTING.md')
    expect(guide).toContain('npm ci && npm test')
    expect(guide).toContain('rm -rf dist && npm run build')
    expect(guide).toContain('(SECURITY.md)')
    expect(guide).toContain('(RELEASING.md)')
  })
})
