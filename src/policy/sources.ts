/**
 * Where rules come from besides the run's own files, as the entry points read them: on a pull request the
 * base commit's files (through the GitHub API, src/github/base-files.ts), and the `policy-source` input (a
 * place the pull request cannot change: another repository through the API, or in the CLI a local path or a
 * git ref). Here they are only parsed: which documents are policies, and which suppressions a base file held.
 */
import { diagnostic, type Diagnostic } from '../diagnostics.js'
import { mentionsSuppression } from '../manifest/suppression-mark.js'
import { substituteVariables, type Variables } from '../manifest/vars.js'
import { MANIFEST_KINDS, type ManifestKind } from '../manifest/vocabulary.js'
import { parseYamlFile, type ParsedDocument } from '../manifest/yaml.js'
import { suppressionsAt } from './suppress.js'

export interface PolicyFile {
  /**
   * Relative to the workspace (a base file), or as the source names it (a policy source's file, which
   * findings and errors quote: `acme/policies@main:org/rules.yaml`).
   */
  path: string
  text: string
}

/** The pull request's base commit, as far as the manifest globs reach. */
export interface BaseFiles {
  /** The base commit's sha. */
  commit: string
  /** Manifest files of this run whose content is the base commit's, byte for byte (same git blob). */
  unchanged: ReadonlySet<string>
  /** Files the globs match at the base whose content differs here, or that are gone here: their base text. */
  differing: readonly PolicyFile[]
}

/** The base commit's files, or why they could not be read (the run then obeys its own files, and says so). */
export type BaseRead = BaseFiles | { unavailable: string }

/** The `policy-source` input's files, or why they could not be read (an error: nothing is planned then). */
export type CentralRead =
  { origin: string; files: readonly PolicyFile[] } | { origin: string; unreadable: string }

/** Rules from places the pull request cannot change, for one stack (run/ splits the base by stack). */
export interface EnforcedPolicies {
  base?: BaseRead
  /** Policy documents of the `policy-source`, parsed once for the run (centralPolicies). */
  central?: { origin: string; documents: readonly ParsedDocument[] }
}

/** A suppression as written at the base commit: whose, and of which rule. */
export const suppressionKey = (kind: string, name: string, rule: string): string =>
  JSON.stringify([kind, name, rule])

/** How a suppression names its resource: by name; a team member by its email (lowercased, as the server). */
export function resourceKey(kind: string, value: Record<string, unknown>): string | undefined {
  if (kind === 'TeamMember') return typeof value.email === 'string' ? value.email.toLowerCase() : undefined
  return typeof value.name === 'string' ? value.name : undefined
}

export interface ParsedBaseFile {
  /** Its Policy documents, `${VAR}`s substituted with the run's variables. */
  policies: ParsedDocument[]
  /** suppressionKey of every suppression it held. */
  suppressions: Set<string>
  /** Why it could not be read as YAML, if so. */
  problem?: string
}

/** A file as the base commit held it: its policies and its suppressions. */
export function parseBaseFile(file: PolicyFile, vars: Variables): ParsedBaseFile {
  const parsed = parseYamlFile(file.path, file.text)
  const out: ParsedBaseFile = { policies: [], suppressions: new Set() }
  const error = parsed.diagnostics.find(d => d.severity === 'error')
  if (error) out.problem = `${file.path}:${error.line ?? 1}: ${error.message}`
  const lines = mentionsSuppression(file.text) ? file.text.split(/\r?\n/) : undefined
  for (const doc of parsed.documents) {
    const value = substituteVariables(doc, vars, {}, 'optional').value
    if (value === null || typeof value !== 'object' || Array.isArray(value)) continue
    const raw = value as Record<string, unknown>
    if (raw.kind === 'Policy') {
      doc.value = raw
      out.policies.push(doc)
      continue
    }
    if (!lines || !(MANIFEST_KINDS as readonly unknown[]).includes(raw.kind)) continue
    const name = resourceKey(raw.kind as ManifestKind, raw)
    if (name === undefined) continue
    for (const s of suppressionsAt(lines, doc.start.line))
      if ('rule' in s) out.suppressions.add(suppressionKey(raw.kind as string, name, s.rule))
  }
  return out
}

/**
 * The `policy-source` files as policy documents. It holds rules only: another document there is an error,
 * and so is a file that is not valid YAML or a source without any rule (a wrong path would otherwise turn the
 * organisation's rules off without a word).
 */
export function centralPolicies(
  read: CentralRead,
  vars: Variables
): { origin: string; documents: ParsedDocument[]; diagnostics: Diagnostic[] } {
  const problem = (message: string) =>
    diagnostic('config', 'error', `policy-source ${read.origin}: ${message}`)
  if ('unreadable' in read)
    return {
      origin: read.origin,
      documents: [],
      diagnostics: [
        problem(`could not be read (${read.unreadable}); nothing is planned without the rules it holds`)
      ]
    }
  const documents: ParsedDocument[] = []
  const diagnostics: Diagnostic[] = []
  for (const file of read.files) {
    const parsed = parseYamlFile(file.path, file.text)
    diagnostics.push(
      ...parsed.diagnostics.filter(d => d.severity === 'error').map(d => ({ ...d, stage: 'config' as const }))
    )
    for (const doc of parsed.documents) {
      const value = substituteVariables(doc, vars, {}, 'optional').value as Record<string, unknown> | null
      if (value?.kind !== 'Policy') {
        diagnostics.push(
          diagnostic(
            'config',
            'error',
            'a policy source holds Policy documents only: this document is not one',
            doc.start
          )
        )
        continue
      }
      doc.value = value
      documents.push(doc)
    }
  }
  if (documents.length === 0 && diagnostics.length === 0)
    diagnostics.push(problem('holds no Policy document (check its path and ref)'))
  return { origin: read.origin, documents, diagnostics }
}
