/**
 * Load and validate every manifest in one pass: each problem in each file is reported, not only the
 * first. Needs no network and no credentials.
 */
import { diagnostic, sortDiagnostics, type Diagnostic } from '../diagnostics.js'
import { findManifestFiles, readManifestFile } from './files.js'
import { describeShape, describeValue } from '../error-message.js'
import { didYouMean, issuesToDiagnostics } from './issues.js'
import {
  alertView,
  checkAcrossDocuments,
  checkAlert,
  checkDashboard,
  checkFilters,
  checkServiceSettings,
  dashboardView,
  type AlertView,
  type DashboardView,
  type Located
} from './rules.js'
import { KIND_SCHEMAS, type AlertSpec, type DashboardSpec, type ServiceSettingsSpec } from './schema.js'
import { substituteVariables, type Variables } from './vars.js'
import { MANIFEST_KINDS, type ManifestKind } from './vocabulary.js'
import { parseYamlFile, type ParsedDocument } from './yaml.js'

export type { Located } from './rules.js'

export interface ManifestSet {
  files: string[]
  /** The documents that passed validation, typed. */
  dashboards: Located<DashboardSpec>[]
  alerts: Located<AlertSpec>[]
  services: Located<ServiceSettingsSpec>[]
  diagnostics: Diagnostic[]
}

export interface LoadOptions {
  patterns: readonly string[]
  cwd: string
  mode: 'self-hosted' | 'managed'
  vars?: Variables
}

/** Every document of each kind, valid or not, for the rules that span documents. */
interface Views {
  /** Some rules differ by API mode (the managed API lacks a few fields and values). */
  mode: 'self-hosted' | 'managed'
  /** A file or a document could not be read: cross-document errors say so. */
  incomplete: boolean
  dashboards: DashboardView[]
  alerts: AlertView[]
  services: ParsedDocument[]
}

export async function loadManifests(options: LoadOptions): Promise<ManifestSet> {
  const found = await findManifestFiles(options.patterns, options.cwd)
  const set = emptySet(found.files)
  set.diagnostics.push(...found.diagnostics)
  const views: Views = { mode: options.mode, incomplete: false, dashboards: [], alerts: [], services: [] }
  for (const path of found.files) {
    const read = await readManifestFile(path, options.cwd)
    set.diagnostics.push(...read.diagnostics)
    if (read.file) addText(set, views, path, read.file.text, options.vars ?? {})
    else views.incomplete = true
  }
  return finish(set, views, options.mode)
}

/** The same validation for text already in memory (tests, fuzzing). */
export function validateText(
  file: string,
  text: string,
  mode: 'self-hosted' | 'managed',
  vars: Variables = {}
): ManifestSet {
  const set = emptySet([file])
  const views: Views = { mode, incomplete: false, dashboards: [], alerts: [], services: [] }
  addText(set, views, file, text, vars)
  return finish(set, views, mode)
}

function emptySet(files: string[]): ManifestSet {
  return { files, dashboards: [], alerts: [], services: [], diagnostics: [] }
}

function addText(set: ManifestSet, views: Views, file: string, text: string, vars: Variables): void {
  const parsed = parseYamlFile(file, text)
  set.diagnostics.push(...parsed.diagnostics)
  if (parsed.diagnostics.some(d => d.severity === 'error')) views.incomplete = true
  else if (parsed.documents.length === 0) {
    // Valid YAML, but nothing to manage: most likely a file saved before its content, or all of it
    // commented out. Said, not silently valid.
    set.diagnostics.push(
      diagnostic(
        'validate',
        'warning',
        'no documents: the file is empty or holds only comments, so it manages nothing (delete it, or add a manifest with a `kind`)',
        { file, line: 1, column: 1 }
      )
    )
  }
  const placeholders = text.includes('${')
  for (const doc of parsed.documents) {
    if (!placeholders) {
      addDocument(set, views, doc)
      continue
    }
    const substituted = substituteVariables(doc, vars)
    if (substituted.diagnostics.length > 0) {
      // A document whose values are not known yet is not validated further.
      set.diagnostics.push(...substituted.diagnostics)
      views.incomplete = true
      continue
    }
    doc.value = substituted.value
    addDocument(set, views, doc)
  }
}

function finish(set: ManifestSet, views: Views, mode: 'self-hosted' | 'managed'): ManifestSet {
  set.diagnostics.push(
    ...checkAcrossDocuments(views.dashboards, views.alerts, views.services, mode, views.incomplete)
  )
  set.diagnostics = sortDiagnostics(set.diagnostics)
  return set
}

function addDocument(set: ManifestSet, views: Views, doc: ParsedDocument): void {
  const value = doc.value
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    set.diagnostics.push(
      diagnostic(
        'validate',
        'error',
        `a manifest must be a mapping with a \`kind\`, got ${describeShape(value)}`,
        doc.start
      )
    )
    return
  }
  const raw = value as Record<string, unknown>
  const kind = raw.kind
  if (typeof kind !== 'string' || !(MANIFEST_KINDS as readonly string[]).includes(kind)) {
    const guess = typeof kind === 'string' ? didYouMean(kind, MANIFEST_KINDS) : undefined
    const message =
      kind === undefined
        ? `is required: one of ${MANIFEST_KINDS.join(', ')}`
        : `must be one of ${MANIFEST_KINDS.join(', ')}, got ${describeValue(kind)}${guess ? ` (did you mean "${guess}"?)` : ''}`
    set.diagnostics.push(diagnostic('validate', 'error', message, { ...doc.locate(['kind']), field: 'kind' }))
    return
  }
  const schema = KIND_SCHEMAS[kind as ManifestKind]
  const result = schema.safeParse(value, { reportInput: true })
  if (!result.success) set.diagnostics.push(...issuesToDiagnostics(result.error.issues, doc, schema))

  // Rules that hold whatever else is wrong with the document, so one pass reports everything.
  set.diagnostics.push(...checkFilters(doc))
  if (kind === 'Alert') {
    set.diagnostics.push(...checkAlert(doc, raw))
    views.alerts.push(alertView(doc, raw))
  } else if (kind === 'ServiceSettings') {
    views.services.push(doc)
  } else {
    const spec = result.success && result.data.kind === 'Dashboard' ? result.data : undefined
    set.diagnostics.push(...checkDashboard(doc, raw, views.mode))
    views.dashboards.push(dashboardView(doc, raw, spec))
  }
  if (!result.success) return

  switch (result.data.kind) {
    case 'Dashboard':
      set.dashboards.push({ spec: result.data, doc })
      break
    case 'Alert':
      set.alerts.push({ spec: result.data, doc })
      break
    case 'ServiceSettings':
      set.diagnostics.push(...checkServiceSettings(doc, result.data))
      set.services.push({ spec: result.data, doc })
      break
  }
}
