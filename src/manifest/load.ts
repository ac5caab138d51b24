/**
 * Load and validate every manifest in one pass: each problem in each file is reported, not only the
 * first. Needs no network and no credentials.
 */
import { diagnostic, sortDiagnostics, type Diagnostic } from '../diagnostics.js'
import { findManifestFiles, readManifestFiles, rereadManifestText, textDigest } from './files.js'
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
import { checkResource, checkSecretPlacement } from './resource-rules.js'
import { kindSchema } from './schema.js'
import { emptySpecs, type ManifestSpec, type SpecLists, type SpecOf } from './specs.js'
import { mentionsSuppression } from './suppression-mark.js'
import { substituteVariables, type Secrets, type SecretValues, type Variables } from './vars.js'
import { MANIFEST_KINDS, type ManifestKind } from './vocabulary.js'
import { parseYamlFile, type ParsedDocument } from './yaml.js'

export type { Located } from './rules.js'

export interface ManifestSet {
  files: string[]
  /** Each file's textDigest, by path, as read (loadManifests): what a saved plan records of the files. */
  digests?: Map<string, string>
  /** The documents that passed validation, typed, by kind. */
  specs: SpecLists
  diagnostics: Diagnostic[]
  /** `kind: Policy` documents, as written: src/policy validates and runs them. */
  policies?: ParsedDocument[]
  /**
   * With policies only: every document of a known kind and its value as written (after `${VAR}`
   * substitution, each `${secret.NAME}` kept as written), which policy rules read after the typed specs
   * have replaced the values.
   */
  documents?: Array<{ kind: ManifestKind; doc: ParsedDocument; value: Record<string, unknown> }>
  /** With `documents` only: the lines of each file that has a suppression comment (suppression-mark.ts). */
  suppressionLines?: Map<string, readonly string[]>
}

export interface LoadOptions {
  patterns: readonly string[]
  /** The files to read when they are already found (a stack's share of the manifests): no search then. */
  files?: readonly string[]
  cwd: string
  mode: 'self-hosted' | 'managed'
  vars?: Variables
  /** Values of `${secret.NAME}` placeholders. */
  secrets?: Secrets
  /** 'optional' (validate): a secret without a value is no error (vars.ts). Default 'required'. */
  secretValues?: SecretValues
  /** Keeps `documents` even without a Policy among these files (the repository's policies hold here too). */
  keepDocuments?: boolean
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
  /** Documents of the other kinds that have a name, by kind: names are unique per kind. */
  named: Map<string, Array<{ doc: ParsedDocument; name: string }>>
}

export async function loadManifests(options: LoadOptions): Promise<ManifestSet> {
  const found = options.files
    ? { files: [...options.files], diagnostics: [] }
    : await findManifestFiles(options.patterns, options.cwd)
  const set: ManifestSet = { ...emptySet(found.files), digests: new Map() }
  set.diagnostics.push(...found.diagnostics)
  const views = emptyViews(options.mode)
  const letGo: LetGo[] = []
  // Files whose documents are held for policies that may yet turn up, and the size of their texts.
  const held: Array<{ path: string; digest: string; count: number }> = []
  let heldBytes = 0
  for await (const read of readManifestFiles(found.files, options.cwd)) {
    const path = read.path
    set.diagnostics.push(...read.diagnostics)
    if (read.file) {
      const digest = textDigest(read.file.text)
      set.digests!.set(path, digest)
      const before = set.documents?.length ?? 0
      addText(
        set,
        views,
        path,
        read.file.text,
        options.vars ?? {},
        options.secrets ?? {},
        options.secretValues,
        // Positions asked for later read the file again: the set holds no text (yaml.ts), but for the files
        // with a suppression comment (addText).
        () => rereadManifestText(path, options.cwd, digest)
      )
      // The documents as written have served validation. Only policies read them later, and whether there
      // are any is known once every file is read. They are held until their files' text passes HELD_TEXT;
      // past it, until a Policy turns up, each file's go as soon as it is read (a plan of 5,000 dashboards
      // held ~25 MB of them to the end of loading, and what a full GC keeps then sets how far the heap
      // grows), and a Policy found later has those read again (valuesAgain), which costs a second parse.
      if (
        !options.keepDocuments &&
        set.policies === undefined &&
        set.documents &&
        set.documents.length > before
      ) {
        held.push({ path, digest, count: set.documents.length - before })
        heldBytes += read.file.text.length
        if (heldBytes > HELD_TEXT) {
          // Every document is a held file's here: no Policy has been read.
          let at = 0
          for (const file of held.splice(0)) {
            const documents = set.documents.slice(at, (at += file.count)).map(letGoOf)
            letGo.push({ path: file.path, digest: file.digest, documents })
          }
          set.documents.splice(0, at)
        }
      }
    } else views.incomplete = true
  }
  if (set.policies !== undefined && letGo.length > 0) valuesAgain(set, letGo, options)
  return finish(set, views, options.mode, options.keepDocuments)
}

/**
 * How much manifest text (UTF-16 code units) whose documents as written are held for policies not yet seen:
 * a repository of 1,000 dashboards of 8 tiles and 2 alerts each is ~2.5 MB, so a Policy that sorts after
 * them costs no second parse; a larger one's documents go as they are read.
 */
const HELD_TEXT = 4 * 2 ** 20

/** What the loader did twice, counted for the tests (as yaml.ts counts its parses). */
export const loadStats = { filesReadAgain: 0 }

/** A file whose documents were let go once validated: what policies would read of it, but for the values. */
interface LetGo {
  path: string
  digest: string
  documents: Array<{ kind: ManifestKind; doc: ParsedDocument }>
}

function letGoOf({ kind, doc }: { kind: ManifestKind; doc: ParsedDocument }): LetGo['documents'][number] {
  doc.value = undefined
  return { kind, doc }
}

/**
 * The values of the documents let go before a Policy turned up, read and parsed again (after `${VAR}`
 * substitution, as loaded), before the documents kept since: the set's documents in file order, as if
 * none had gone. It costs a second parse of the files let go (past HELD_TEXT, before the first Policy), in a
 * run with policies only. A file changed since it was read has none: an error says so.
 */
function valuesAgain(set: ManifestSet, letGo: readonly LetGo[], options: LoadOptions): void {
  const again: NonNullable<ManifestSet['documents']> = []
  for (const file of letGo) {
    loadStats.filesReadAgain++
    const text = rereadManifestText(file.path, options.cwd, file.digest)
    if (text === undefined) {
      set.diagnostics.push(
        diagnostic(
          'validate',
          'error',
          'changed while the manifests were read, so policies cannot check it: run again',
          { file: file.path, line: 1, column: 1 }
        )
      )
      continue
    }
    const parsed = parseYamlFile(file.path, text)
    const placeholders = text.includes('${')
    for (const { kind, doc } of file.documents) {
      const read = parsed.documents.find(d => d.index === doc.index)
      if (!read) continue
      const value = placeholders ? valueForRules(read, options.vars ?? {}) : read.value
      again.push({ kind, doc, value: value as Record<string, unknown> })
    }
  }
  set.documents = [...again, ...(set.documents ?? [])]
}

/** The same validation for several files' text already in memory (sync checks the files it would write). */
export function validateTexts(
  files: ReadonlyArray<{ path: string; text: string }>,
  mode: 'self-hosted' | 'managed',
  vars: Variables = {},
  secrets: Secrets = {}
): ManifestSet {
  const set = emptySet(files.map(f => f.path))
  const views = emptyViews(mode)
  for (const f of files) addText(set, views, f.path, f.text, vars, secrets)
  return finish(set, views, mode)
}

/** The same validation for text already in memory (tests, fuzzing). */
export function validateText(
  file: string,
  text: string,
  mode: 'self-hosted' | 'managed',
  vars: Variables = {},
  secrets: Secrets = {},
  secretValues: SecretValues = 'required'
): ManifestSet {
  const set = emptySet([file])
  const views = emptyViews(mode)
  addText(set, views, file, text, vars, secrets, secretValues)
  return finish(set, views, mode)
}

function emptySet(files: string[]): ManifestSet {
  return {
    files,
    specs: emptySpecs(),
    diagnostics: []
  }
}

function emptyViews(mode: 'self-hosted' | 'managed'): Views {
  return { mode, incomplete: false, dashboards: [], alerts: [], services: [], named: new Map() }
}

function addText(
  set: ManifestSet,
  views: Views,
  file: string,
  text: string,
  vars: Variables,
  secrets: Secrets,
  secretValues: SecretValues = 'required',
  reread?: () => string | undefined
): void {
  const parsed = parseYamlFile(file, text, reread)
  set.diagnostics.push(...parsed.diagnostics)
  const marked = mentionsSuppression(text)
  if (marked) (set.suppressionLines ??= new Map()).set(file, text.split(/\r?\n/))
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
    const substituted = substituteVariables(doc, vars, secrets, secretValues)
    if (substituted.diagnostics.length > 0) {
      // A document whose values are not known yet is not validated further.
      set.diagnostics.push(...substituted.diagnostics)
      views.incomplete = true
      continue
    }
    // What policy rules read: each secret field as its placeholder, in validate and plan alike, so nothing
    // a rule computes depends on a secret (README "Policies"). A second walk, for documents with secrets only.
    const asWritten = substituted.secretPaths.size > 0 ? valueForRules(doc, vars) : substituted.value
    doc.value = substituted.value
    if (substituted.secretPaths.size > 0) doc.secretPaths = substituted.secretPaths
    if (substituted.unsetSecretPaths.size > 0) doc.unsetSecretPaths = substituted.unsetSecretPaths
    addDocument(set, views, doc, asWritten)
  }
  // A file with a suppression keeps its text: policies place each suppression by its document's start,
  // which must come from the same text as the lines (a file edited since would not give it).
  if (!marked) parsed.release?.()
}

function finish(
  set: ManifestSet,
  views: Views,
  mode: 'self-hosted' | 'managed',
  keepDocuments = false
): ManifestSet {
  set.diagnostics.push(
    ...checkAcrossDocuments(views.dashboards, views.alerts, views.services, mode, views.incomplete),
    ...uniqueNames(views.named),
    ...savedSearchesOfAlerts(views),
    ...uniqueEmails(set.specs.TeamMember)
  )
  set.diagnostics = sortDiagnostics(set.diagnostics)
  if (set.policies === undefined && !keepDocuments) {
    set.documents = undefined
    set.suppressionLines = undefined
  }
  // The raw values have served validation: later stages use the typed specs. Dropping them halves what
  // a plan of thousands of manifests keeps.
  for (const kind of MANIFEST_KINDS) for (const { doc } of set.specs[kind]) doc.value = undefined
  return set
}

/**
 * A document's value as policy rules see it: `${VAR}`s substituted, every `${secret.NAME}` left as written.
 * Substituting with no secret values and 'optional' keeps each secret placeholder as its own text.
 */
function valueForRules(doc: ParsedDocument, vars: Variables): unknown {
  return substituteVariables(doc, vars, {}, 'optional').value
}

function addDocument(
  set: ManifestSet,
  views: Views,
  doc: ParsedDocument,
  /** The value policy rules read (valueForRules); the document's own value when it holds no secret. */
  forRules: unknown = doc.value
): void {
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
  if (kind === 'Policy') {
    // Rules over the other documents, not a resource: src/policy checks them. A secret placeholder in a
    // policy stays a placeholder too: no rule holds a secret's value.
    doc.value = forRules
    ;(set.policies ??= []).push(doc)
    return
  }
  if (typeof kind !== 'string' || !(MANIFEST_KINDS as readonly string[]).includes(kind)) {
    // A misspelt Policy is as likely as a misspelt resource kind: it is offered too.
    const kinds = [...MANIFEST_KINDS, 'Policy']
    const guess = typeof kind === 'string' ? didYouMean(kind, kinds) : undefined
    const message =
      kind === undefined
        ? `is required: one of ${kinds.join(', ')}`
        : `must be one of ${kinds.join(', ')}, got ${describeValue(kind)}${guess ? ` (did you mean "${guess}"?)` : ''}`
    set.diagnostics.push(diagnostic('validate', 'error', message, { ...doc.locate(['kind']), field: 'kind' }))
    return
  }
  ;(set.documents ??= []).push({
    kind: kind as ManifestKind,
    doc,
    value: forRules as Record<string, unknown>
  })
  // Self-hosted alerts take webhook channels only: its schema says so in its own words.
  const schema = kindSchema(kind as ManifestKind, views.mode)
  const result = schema.safeParse(value, { reportInput: true })
  if (!result.success) set.diagnostics.push(...issuesToDiagnostics(result.error.issues, doc, schema))

  // Rules that hold whatever else is wrong with the document, so one pass reports everything.
  const spec = result.success ? (result.data as ManifestSpec) : undefined
  set.diagnostics.push(
    ...checkFilters(doc),
    ...checkSecretPlacement(doc, kind, raw),
    ...DOCUMENT_RULES[kind as ManifestKind](doc, raw, views, spec as never)
  )
  if (spec) (set.specs[spec.kind] as Located<ManifestSpec>[]).push({ spec, doc })
}

/**
 * What each kind's document is checked for beyond its schema, valid or not (`spec` when it parsed), and what
 * the rules across documents keep of it. A record over the vocabulary: a new kind without its entry does not
 * compile.
 */
const DOCUMENT_RULES: {
  [K in ManifestKind]: (
    doc: ParsedDocument,
    raw: Record<string, unknown>,
    views: Views,
    spec?: SpecOf<K>
  ) => Diagnostic[]
} = {
  Connection: (doc, raw, views) => namedResource(doc, 'Connection', raw, views),
  Source: (doc, raw, views) => namedResource(doc, 'Source', raw, views),
  SavedSearch: (doc, raw, views) => namedResource(doc, 'SavedSearch', raw, views),
  Webhook: (doc, raw, views) => namedResource(doc, 'Webhook', raw, views),
  Role: (doc, raw, views) => namedResource(doc, 'Role', raw, views),
  // A team member's `name` is a person's, not how manifests refer to it: its email is (uniqueEmails).
  TeamMember: (doc, raw, views) => checkResource(doc, 'TeamMember', raw, views.mode),
  Dashboard: (doc, raw, views, spec) => {
    views.dashboards.push(dashboardView(doc, raw, spec))
    return checkDashboard(doc, raw, views.mode, spec)
  },
  Alert: (doc, raw, views) => {
    views.alerts.push(alertView(doc, raw))
    return checkAlert(doc, raw, views.mode)
  },
  ServiceSettings: (doc, _raw, views, spec) => {
    views.services.push(doc)
    return spec ? checkServiceSettings(doc, spec) : []
  }
}

/** A resource that manifests refer to by its name: the name is unique per kind (uniqueNames). */
function namedResource(
  doc: ParsedDocument,
  kind: ManifestKind,
  raw: Record<string, unknown>,
  views: Views
): Diagnostic[] {
  if (typeof raw.name === 'string')
    views.named.set(kind, [...(views.named.get(kind) ?? []), { doc, name: raw.name }])
  return checkResource(doc, kind, raw, views.mode)
}

/** Names are how manifests refer to connections, sources, saved searches and webhooks: unique per kind. */
function uniqueNames(named: Views['named']): Diagnostic[] {
  return [...named].flatMap(([kind, docs]) =>
    duplicates(
      docs.map(({ doc, name }) => ({ doc, key: name })),
      'name',
      (name, firstAt) => `duplicate ${kind} name "${name}" (also at ${firstAt})`
    )
  )
}

/** A person is one team member: the server lowercases emails, so two spellings of one are duplicates. */
function uniqueEmails(members: readonly Located<SpecOf<'TeamMember'>>[]): Diagnostic[] {
  return duplicates(
    members.map(({ spec, doc }) => ({ doc, key: spec.email.toLowerCase() })),
    'email',
    (_, firstAt) => `duplicate TeamMember email (also at ${firstAt}; emails compare case-insensitively)`
  )
}

/** Each document after the first of its key: an error at its `field` that says where the first one is. */
function duplicates(
  entries: ReadonlyArray<{ doc: ParsedDocument; key: string }>,
  field: 'name' | 'email',
  message: (key: string, firstAt: string) => string
): Diagnostic[] {
  const seen = new Map<string, ParsedDocument>()
  const out: Diagnostic[] = []
  for (const { doc, key } of entries) {
    const first = seen.get(key)
    if (!first) {
      seen.set(key, doc)
      continue
    }
    const firstAt = `${first.file}:${first.locate([field]).line}`
    out.push(diagnostic('validate', 'error', message(key, firstAt), { ...doc.locate([field]), field }))
  }
  return out
}

/**
 * A saved-search alert is owned through its saved search, so the saved search must be one the manifests
 * declare (by name; an id is checked at plan time), as a tile alert's dashboard must.
 */
function savedSearchesOfAlerts(views: Views): Diagnostic[] {
  const names = (views.named.get('SavedSearch') ?? []).map(s => s.name)
  return views.alerts.flatMap(a => {
    const name = a.savedSearch
    if (name === undefined || names.includes(name)) return []
    const guess = didYouMean(name, names)
    const hint = guess
      ? ` (did you mean "${guess}"?)`
      : views.incomplete
        ? ' (some manifests could not be read: fix those errors first)'
        : ': an alert is owned through its saved search, so declare it (`adopt: true` for an existing one)'
    return [
      diagnostic('validate', 'error', `no SavedSearch named "${name}" in the manifests${hint}`, {
        ...a.doc.locate(['savedSearch']),
        field: 'savedSearch'
      })
    ]
  })
}
