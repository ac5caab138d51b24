/**
 * `obsdeploy sync`: the stack's manifest files rewritten so that they describe the live state of what the stack
 * owns, where it differs (an edit in the web UI, or through the API). Pure: the caller reads the files and the live
 * state, plans them, and hands over a `replan` that plans texts as they would be; this module says what each file
 * becomes.
 *
 * Each differing record's document is brought in line with what export writes of its live record (sync-merge.ts),
 * in place: the same file and document, comments, key order and quoting kept, names not ids, placeholders kept. A
 * key the manifest spells out and export leaves out stays unless the plan still differs with it: then the keys
 * whose removal brings the plan closer go, one at a time. A document whose record is gone from the server is
 * removed; a record the stack owns that no manifest declares (made in the UI with the stack's tag) is added,
 * where the stack prunes (else the plan defers its delete, and sync leaves it alone too). What still differs
 * afterwards (a secret, a setting no manifest can say) is named, never hidden: the caller checks the plan of the
 * written files, and says what it still holds.
 */
import { diffArrays } from 'diff'
import type { Document } from 'yaml'
import type { Mode } from '../config/types.js'
import { isMapping } from '../json.js'
import { formatPath } from '../manifest/path.js'
import { documentIdentity } from '../kinds/exporting.js'
import { KINDS_BY_NAME, type AnyKind } from '../kinds/index.js'
import { recordsOf, type LiveState } from '../kinds/kind.js'
import type { Registry } from '../kinds/registry.js'
import type { SyncedAction, SyncedFile, SyncedRecord, SyncOutcome } from '../plan/sync.js'
import type { Change, FieldChange } from '../plan/types.js'
import { yamlLibrary } from '../yaml-library.js'
import { allOf, exportContext, uniqueFileName, writtenKinds, type ExportInput } from './manifests.js'
import { addAt, mergeInto, removeAt, type Addition, type MergeOutcome, type NodePath } from './sync-merge.js'

export type { SyncedFile, SyncOutcome } from '../plan/sync.js'

export interface SyncFileInput {
  /** As the plan's locations name it (relative to the working directory). */
  path: string
  text: string
}

export interface SyncInput {
  files: readonly SyncFileInput[]
  /** The stack's plan against `live`: what differs, by the manifest document that declares it. */
  changes: readonly Change[]
  live: LiveState
  ownershipTag: string
  registry?: Registry
  mode: Mode
  /** Where a record no manifest declares gets a file of its own (`/`-separated, relative). */
  folder: string
  /**
   * The stack planned with these files' texts instead (others as they are), against the same live state; undefined
   * when they do not validate.
   */
  replan(texts: ReadonlyMap<string, string>): readonly Change[] | undefined
}

interface FileState {
  path: string
  text: string
  docs: Document[]
  starts: number[]
  /** Indexes of documents edited (rendered again), and removed. */
  edited: Set<number>
  removed: Set<number>
  /** Documents added at the end, as text. */
  appended: string[]
}

/** A document export writes of a live record: the record's own, or one it carries (a dashboard's alert). */
interface ExportedDoc {
  value: unknown
  doc: Document
  /** `Alert|name`: how a change with no document (a record the stack owns, in no manifest) finds it. */
  kindName: string
  /** The same document in its other forms (ExportContext.alternateForms). */
  alternate?: unknown
  /** Of a carried document: its carrier's identity. */
  carrier?: string
  /** Of a record's own document: it and those it carries, as export writes them into one file. */
  family?: ExportedDoc[]
}

export function syncManifests(input: SyncInput): SyncOutcome {
  const exported = exportedIndex(input)
  const files = input.files.map(parseFile)
  const byPath = new Map(files.map(f => [f.path, f]))
  const records: SyncedRecord[] = []
  const left: SyncOutcome['left'] = []
  const orphans: Change[] = []
  const merges: Array<{ file: FileState; index: number; change: Change; target: ExportedDoc }> = []

  for (const change of input.changes) {
    if (change.action === 'noop') continue
    const located = change.source && locate(byPath.get(change.source.file), change.source.line)
    if (!located) {
      if (change.action === 'delete') orphans.push(change)
      else left.push({ address: change.address, why: 'no manifest document of this stack declares it' })
      continue
    }
    const { file, index } = located
    const key = documentIdentity(file.docs[index]!.toJS())
    // By the live id the plan paired it with (a record renamed in the UI), else by what the document names.
    const target =
      (change.id !== undefined ? exported.byLive.get(`${change.kind}|${change.id}`) : undefined) ??
      (key === undefined ? undefined : exported.byIdentity.get(key))
    if (change.action === 'create') {
      if (target)
        left.push({
          address: change.address,
          why: 'a record of that name is on the server, but this stack does not own it: its document is kept'
        })
      else {
        file.removed.add(index)
        records.push(recordOf(change, 'removed', file.path, input.live))
      }
    } else if (target) merges.push({ file, index, change, target })
    else
      left.push({
        address: change.address,
        why: 'export writes no manifest of this kind: sync cannot say it'
      })
  }

  const merged = merges.map(m => {
    m.file.edited.add(m.index)
    const open = mergeInto(m.file.docs[m.index]!, m.target.value, m.target.alternate)
    return { file: m.file, index: m.index, address: m.change.address, open }
  })
  const distances = settleAll(merged)
  merges.forEach((m, i) => {
    const outcome = merged[i]!.open
    // A placeholder stands for a variable or a secret: sync never writes a value over it, and says so.
    if ((distances.get(m.change.address) ?? 0) > 0)
      for (const at of outcome.placeholders)
        left.push({
          address: m.change.address,
          why: `${formatPath(at)} is a placeholder in the manifest; the server holds another value, which sync does not write over it (set the variable or secret, or edit the manifest)`
        })
    records.push(recordOf(m.change, 'updated', m.file.path, input.live))
  })
  addKept()
  const created = addOrphans()
  const changed = files.flatMap((f): SyncedFile[] => {
    const after = render(f)
    if (after === f.text) return []
    return [{ path: f.path, before: f.text, after: after.trim() === '' ? null : after }]
  })
  return { files: [...changed, ...created], records, left }

  /**
   * What the merges left open, settled by asking the planner (stepsOf says which steps, in which order). Every
   * record takes its next step at once and one plan judges them all: a step stays where its record's plan then
   * differs less (or, for a key at the top that an update keeps, no more), and is undone otherwise. So a sync of many
   * records asks the planner as often as one record has steps, not once per step of every record. A round whose
   * texts do not validate is tried again one step at a time, so one record's bad step costs no other its own.
   * Returns how far each record's plan still is from nothing to do.
   */
  function settleAll(
    open: ReadonlyArray<{ file: FileState; index: number; address: string; open: MergeOutcome }>
  ) {
    const start = distancesOf(open.map(o => o.address))
    const runs: Settling[] = open.map(o => {
      const steps = stepsOf(o.open)
      return { ...o, distance: start?.get(o.address) ?? Infinity, steps, next: steps.next(false) }
    })
    for (;;) {
      // A record the plan finds equal takes only the steps that add what an update keeps.
      for (const r of runs)
        while (!r.next.done && r.distance === 0 && !r.next.value.even) r.next = r.steps.next(false)
      const active = runs.filter(r => !r.next.done)
      if (active.length === 0) break
      tryRound(active)
    }
    return new Map(runs.map(r => [r.address, r.distance]))
  }

  function tryRound(active: readonly Settling[]): void {
    const before = active.map(r => r.file.docs[r.index]!.clone())
    for (const r of active) (r.next.value as Step).edit(r.file.docs[r.index]!)
    const after = distancesOf(active.map(r => r.address))
    if (after === undefined && active.length > 1) {
      active.forEach((r, i) => (r.file.docs[r.index] = before[i]!))
      for (const r of active) tryRound([r])
      return
    }
    active.forEach((r, i) => {
      const step = r.next.value as Step
      const d = after?.get(r.address) ?? Infinity
      const kept = d < r.distance || (step.even && d === r.distance && d !== Infinity)
      if (kept) r.distance = d
      else r.file.docs[r.index] = before[i]!
      r.next = r.steps.next(kept)
    })
  }

  /** How far each record's plan is from nothing to do, in one plan of the texts as they are; undefined: invalid. */
  function distancesOf(addresses: readonly string[]): Map<string, number> | undefined {
    const texts = new Map(files.map(f => [f.path, render(f)]))
    const changes = input.replan(texts)
    if (!changes) return undefined
    const byAddress = new Map(changes.map(c => [c.address, c]))
    return new Map(addresses.map(a => [a, distanceOfChange(byAddress.get(a))]))
  }

  /**
   * Records the plan finds equal that still hold what the manifest leaves out and an update keeps (an alert's
   * displayName and tags set in the UI): the keys export writes at the top of their documents are added, each only
   * where the plan stays empty. Nothing else of such a document is touched.
   */
  function addKept(): void {
    const merged = new Set(merges.map(m => m.file.docs[m.index]!))
    const equal = input.changes.filter(c => c.action === 'noop')
    const kept: Array<{
      file: FileState
      index: number
      address: string
      open: MergeOutcome
      change: Change
    }> = []
    for (const file of files)
      file.docs.forEach((doc, index) => {
        if (merged.has(doc) || file.removed.has(index)) return
        const value = doc.toJS() as unknown
        const key = documentIdentity(value)
        const target = key === undefined ? undefined : exported.byIdentity.get(key)
        const same = isMapping(value) ? equal.filter(c => c.kind === value.kind && c.name === value.name) : []
        if (!target || same.length !== 1) return
        const additions = mergeInto(doc.clone(), target.value, target.alternate).additions.filter(
          a => a.path.length === 1
        )
        if (additions.length === 0) return
        const open: MergeOutcome = { changed: false, extras: [], additions, placeholders: [] }
        kept.push({ file, index, address: same[0]!.address, open, change: same[0]! })
      })
    if (kept.length === 0) return
    // Each step adds a key at the top, kept where the plan stays empty (settleAll's `even` steps), all in rounds.
    for (const k of kept) k.file.edited.add(k.index)
    settleAll(kept)
    for (const k of kept) {
      const doc = k.file.docs[k.index]!
      const added: FieldChange[] = k.open.additions
        .filter(a => doc.has(a.path[0]))
        .map(a => ({ path: String(a.path[0]), before: a.value }))
      if (added.length === 0) k.file.edited.delete(k.index)
      else records.push({ ...recordOf(k.change, 'updated', k.file.path, input.live), fields: added })
    }
  }

  /**
   * Records the stack owns that no manifest declares (made in the UI with the stack's tag, or on a dashboard of
   * the stack): added where the plan would delete them (the stack prunes); where it holds the delete back (prune
   * off: it may be a manifest removed on purpose), named and left alone. A dashboard gets a file of its own with
   * its alerts; an alert goes into the file of what it watches.
   */
  function addOrphans(): SyncedFile[] {
    const out: SyncedFile[] = []
    const taken = new Set(input.files.map(f => f.path))
    const handled = new Set<Change>()
    const add = (change: Change, file: string) => {
      handled.add(change)
      records.push(recordOf(change, 'added', file, input.live))
    }
    for (const change of orphans) {
      if (handled.has(change)) continue
      if (change.deferred !== undefined) {
        left.push({
          address: change.address,
          why:
            change.deferred === 'prune'
              ? 'owned on the server and in no manifest; this stack does not prune, so sync does not add it (it may be a manifest removed on purpose)'
              : `owned on the server and in no manifest, its delete held (${change.deferred}): sync does not add it`
        })
        continue
      }
      const own = change.id === undefined ? undefined : exported.byLive.get(`${change.kind}|${change.id}`)
      if (own?.family) {
        const path = freshPath(input.folder, change.name, taken)
        const text = own.family.map(d => d.doc.toString({ lineWidth: 0 })).join('---\n')
        out.push({
          path,
          before: null,
          after: `# Added by obsdeploy sync: made on the server with this stack's tag, in no manifest before.\n${text}`
        })
        add(change, path)
        for (const d of own.family.slice(1)) {
          const carried = orphans.find(c => !handled.has(c) && `${c.kind}|${c.name}` === d.kindName)
          if (carried) add(carried, path)
        }
        continue
      }
      const carried = exported.carried.filter(d => d.kindName === `${change.kind}|${change.name}`)
      const holder = carried.length === 1 ? findHolder(files, carried[0]!.carrier) : undefined
      if (!holder) {
        left.push({
          address: change.address,
          why:
            carried.length > 1
              ? 'owned on the server and in no manifest; several records have its name, so sync cannot tell which to add'
              : 'owned on the server and in no manifest; sync finds no manifest of what it belongs to'
        })
        continue
      }
      holder.appended.push(carried[0]!.doc.toString({ lineWidth: 0 }))
      add(change, holder.path)
    }
    return out
  }
}

/** A step of settling a record: an edit of its document, and whether it may stay where the plan is no closer. */
interface Step {
  edit(doc: Document): void
  /** A key at the top that an update keeps (an alert's displayName): kept where the plan differs no more. */
  even: boolean
}

interface Settling {
  file: FileState
  index: number
  address: string
  distance: number
  steps: Generator<Step, void, boolean>
  next: IteratorResult<Step, void>
}

/**
 * The steps that settle what a merge left open, each told whether it was kept: each key export writes that the
 * manifest lacks, added; each key the manifest spells out that export does not write, removed; then each addition
 * not kept, tried again with its siblings that export does not write removed: another way of saying the same thing.
 */
function* stepsOf(open: MergeOutcome): Generator<Step, void, boolean> {
  const removed = new Set<NodePath>()
  const untried: Addition[] = []
  for (const addition of open.additions) {
    const kept = yield { edit: doc => addAt(doc, addition), even: addition.path.length === 1 }
    if (!kept) untried.push(addition)
  }
  for (const extra of open.extras)
    if (yield { edit: doc => removeAt(doc, extra), even: false }) removed.add(extra)
  for (const addition of untried) {
    const parent = JSON.stringify(addition.path.slice(0, -1))
    const siblings = open.extras.filter(e => !removed.has(e) && JSON.stringify(e.slice(0, -1)) === parent)
    if (siblings.length === 0) continue
    const swap = (doc: Document) => {
      for (const e of siblings) removeAt(doc, e)
      addAt(doc, addition)
    }
    if (yield { edit: swap, even: false }) siblings.forEach(e => removed.add(e))
  }
}

/** How far a record's plan is from nothing to do: its changed fields and notes, and one for any action. */
function distanceOfChange(change: Change | undefined): number {
  // Texts that no longer declare the record are as far as can be (a noop carries no source: told apart first).
  if (change?.action === 'noop') return 0
  if (!change || change.source === undefined) return Infinity
  return 1 + change.fields.length + change.notes.length
}

/** Every document export writes of the live state, by identity; records' own documents also by live id. */
function exportedIndex(input: SyncInput): {
  byIdentity: Map<string, ExportedDoc>
  byLive: Map<string, ExportedDoc>
  carried: ExportedDoc[]
} {
  const exportInput: ExportInput = {
    ownershipTag: input.ownershipTag,
    registry: input.registry,
    mode: input.mode
  }
  for (const kind of KINDS_BY_NAME.values()) {
    if (!kind.exports) continue
    const records = recordsOf(input.live, kind.kind)
    exportInput[allOf(kind.exports.list)] = records
    exportInput[kind.exports.list] = records
  }
  const ctx = exportContext(exportInput)
  // The same records in their other forms, for the manifests that use those (mergeInto's `alternate`).
  const alternateCtx = exportContext(exportInput, undefined, { alternateForms: true })
  const byIdentity = new Map<string, ExportedDoc>()
  const byLive = new Map<string, ExportedDoc>()
  const carried: ExportedDoc[] = []
  for (const { kind, writes } of writtenKinds()) {
    const write = writes.writer(ctx)
    const writeAlternate = writes.writer(alternateCtx)
    for (const record of recordsOf(input.live, kind.kind) ?? []) {
      if (writes.skips?.(record)) continue
      const written = write(record)
      const alternates = writeAlternate(record).documents
      const docs = written.documents.map((doc, i) => {
        const d = exportedDoc(doc)
        if (alternates.length === written.documents.length) d.alternate = alternates[i]!.toJS() as unknown
        return d
      })
      ctx.secrets.all.splice(0)
      alternateCtx.secrets.all.splice(0)
      if (docs.length === 0) continue
      const own = docs[0]!
      own.family = docs
      const ids = written.ids ?? [kind.liveId(record)]
      docs.forEach((d, i) => {
        if (ids[i] !== undefined) byLive.set(`${d.kindName.split('|')[0]}|${ids[i]}`, d)
      })
      const carrier = documentIdentity(own.value)
      for (const d of docs.slice(1)) {
        d.carrier = carrier
        carried.push(d)
      }
      for (const d of docs) {
        const key = documentIdentity(d.value)
        // Two records export alike (same-named alerts on one tile): neither is a safe match.
        if (key !== undefined) byIdentity.set(key, byIdentity.has(key) ? AMBIGUOUS : d)
      }
    }
  }
  for (const [key, d] of byIdentity) if (d === AMBIGUOUS) byIdentity.delete(key)
  return { byIdentity, byLive, carried }
}

const AMBIGUOUS: ExportedDoc = { value: undefined, doc: undefined as unknown as Document, kindName: '' }

function exportedDoc(doc: Document): ExportedDoc {
  const value = doc.toJS() as unknown
  const v = isMapping(value) ? value : {}
  return { value, doc, kindName: `${String(v.kind)}|${String(v.name)}` }
}

function recordOf(change: Change, action: SyncedAction, file: string, live: LiveState): SyncedRecord {
  const kind = KINDS_BY_NAME.get(change.kind)
  const record =
    action === 'removed' || change.id === undefined ? undefined : liveRecord(kind, live, change.id)
  const said = (key: string) => {
    const v = isMapping(record) ? record[key] : undefined
    return typeof v === 'string' && v !== '' ? v : undefined
  }
  const updatedAt = said('updatedAt')
  const updatedBy = said('updatedBy')
  return {
    address: change.address,
    kind: change.kind,
    name: change.name,
    action,
    ...(action !== 'removed' && change.id !== undefined ? { id: change.id } : {}),
    file,
    fields: action === 'updated' ? change.fields : [],
    ...(updatedAt ? { updatedAt } : {}),
    ...(updatedBy ? { updatedBy } : {})
  }
}

function liveRecord(kind: AnyKind | undefined, live: LiveState, id: string): unknown {
  if (!kind) return undefined
  return (recordsOf(live, kind.kind) ?? []).find(r => kind.liveId(r) === id)
}

function parseFile(input: SyncFileInput): FileState {
  const { parseAllDocuments } = yamlLibrary()
  const parsed = parseAllDocuments(input.text)
  const docs = (Array.isArray(parsed) ? parsed : [parsed]) as Document[]
  // Where each document starts in the text, as read: the documents are replaced by copies as sync tries edits.
  const starts = docs.map((d, i) => (i === 0 ? 0 : (d.range?.[0] ?? 0)))
  return {
    path: input.path,
    text: input.text,
    docs,
    starts,
    edited: new Set(),
    removed: new Set(),
    appended: []
  }
}

/** The document of `file` that holds `line` (1-based). */
function locate(file: FileState | undefined, line: number): { file: FileState; index: number } | undefined {
  if (!file) return undefined
  const lineStarts = [0]
  for (let i = 0; i < file.text.length; i++) if (file.text[i] === '\n') lineStarts.push(i + 1)
  const offset = lineStarts[line - 1] ?? file.text.length
  let index = -1
  file.docs.forEach((d, i) => {
    if ((d.range?.[0] ?? 0) <= offset) index = i
  })
  // The first document's range starts after the file's leading comments; a line before it is still its.
  return file.docs.length === 0 ? undefined : { file, index: Math.max(0, index) }
}

/** A file as sync leaves it: documents it did not touch as they were written, byte for byte. */
function render(f: FileState): string {
  if (f.edited.size === 0 && f.removed.size === 0 && f.appended.length === 0) return f.text
  const starts = f.starts
  const style = styleOf(f.text)
  const pieces: string[] = []
  f.docs.forEach((doc, i) => {
    if (f.removed.has(i)) return
    const original = f.text.slice(starts[i], i + 1 < starts.length ? starts[i + 1] : f.text.length)
    pieces.push(f.edited.has(i) ? restoreLines(original, doc.toString({ lineWidth: 0, ...style })) : original)
  })
  pieces.push(...f.appended)
  // Every document after the first starts with its marker (one that followed a removed one keeps its own).
  return pieces
    .map((p, i) => (i === 0 || p.startsWith('---') ? p : `---\n${p}`))
    .map(p => (p.endsWith('\n') ? p : `${p}\n`))
    .join('')
}

/**
 * The `yaml` library writes a document again in its own spacing (`[a]` as `[ a ]`, a comment's alignment); a line
 * it wrote that says what a line of the original said, spaced otherwise, is put back as written. Lines are paired
 * where a run of the original's lines was replaced by as many: the same value and comment, spacing aside.
 */
function restoreLines(original: string, rendered: string): string {
  const { parse } = yamlLibrary()
  const same = (a: string, b: string): boolean => {
    // Indentation is structure: only spacing within a line may differ.
    const indent = (line: string) => /^[\s-]*/.exec(line)![0]
    if (indent(a) !== indent(b) || a.replace(/\s+/g, '') !== b.replace(/\s+/g, '')) return false
    try {
      return JSON.stringify(parse(a.trim())) === JSON.stringify(parse(b.trim()))
    } catch {
      return false
    }
  }
  const out: string[] = []
  let removed: string[] = []
  for (const part of diffArrays(original.split('\n'), rendered.split('\n'))) {
    if (part.removed) removed = part.value
    else if (part.added) {
      out.push(
        ...part.value.map((line, i) =>
          removed[i] !== undefined && same(removed[i]!, line) ? removed[i]! : line
        )
      )
      removed = []
    } else {
      removed = []
      out.push(...part.value)
    }
  }
  return out.join('\n')
}

/** The file's own ways, for the documents written again: lists at their key's indent or below it, `[a]` or `[ a ]`. */
function styleOf(text: string): { indentSeq: boolean; flowCollectionPadding: boolean } {
  return {
    indentSeq: !/^( *)[^\s#-][^\n]*:\n\1- /m.test(text),
    flowCollectionPadding: /[[{] \S/.test(text)
  }
}

function findHolder(files: readonly FileState[], carrier: string | undefined): FileState | undefined {
  if (carrier === undefined) return undefined
  return files.find(f => f.docs.some(d => documentIdentity(d.toJS()) === carrier))
}

/** `<folder>/<slug>.yaml`, unique among the stack's files. */
function freshPath(folder: string, name: string, taken: Set<string>): string {
  const at = (file: string) => (folder === '.' || folder === '' ? file : `${folder}/${file}`)
  const path = at(uniqueFileName(name, 'record', file => taken.has(at(file))))
  taken.add(path)
  return path
}
