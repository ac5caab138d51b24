/**
 * Live resources -> manifest files a human would write. Each kind says how (`Kind.exports`): whether its records go
 * all into one file for the kind (connections, sources, webhooks, saved searches with their alerts, team members) or
 * one file each (a dashboard, with its alerts), and how a record becomes its documents. This file puts the
 * documents into files: a header saying what the file holds and the secret variables its manifests need, file
 * names unique in the export (a kind's file takes its name before the records' files do). Pure: the command does
 * the I/O.
 */
import type { Document } from 'yaml'
import type { Mode } from '../config/types.js'
import { Namer, SecretNames } from '../kinds/exporting.js'
import { KINDS, type AnyKind } from '../kinds/index.js'
import type { ExportContext, ExportedRecord, ExportFile, ExportWrites } from '../kinds/kind.js'
import { Registry } from '../kinds/registry.js'
import type { ResourceKind } from '../plan/types.js'

/**
 * The pure export's input: each kind's records to write under its list's name (`Kind.exports.list`: `dashboards`,
 * `sources`; and `alerts`, which go with what they watch), and every live record of a kind under `all` and that
 * name (`allDashboards`): same-named records and the names of references are found among those. A kind without
 * its `all` list has only the records to write; one without either, none.
 */
export interface ExportInput {
  [list: string]: unknown
  ownershipTag: string
  /** What the stack owns of the kinds without tags (the rest are exported with `adopt: true`). */
  registry?: Registry
  mode?: Mode
}

/** The key of every live record of a kind in an ExportInput: `allDashboards`. */
export const allOf = (list: string): string => `all${list.charAt(0).toUpperCase()}${list.slice(1)}`

export interface ExportedFile {
  /** File name (no folder), unique within the export. */
  name: string
  text: string
  kind: ResourceKind
  /** What it holds, in words: `dashboard "Checkout"`, `webhooks`. */
  what: string
  /** The records it carries (a dashboard's or the saved searches' alerts). */
  alerts: number
  /** Alerts of a dashboard whose name another exported one shares: an alert could not say which (see its note). */
  alertsLeftOut?: number
}

/** The kinds export writes, in the order of the plan, with their lists' names and how they are written. */
export function writtenKinds(
  kinds: readonly AnyKind[] = KINDS
): Array<{ kind: AnyKind; list: string; writes: ExportWrites<unknown> }> {
  return kinds.flatMap(kind =>
    kind.exports?.writes ? [{ kind, list: kind.exports.list, writes: kind.exports.writes }] : []
  )
}

export function exportManifests(input: ExportInput, kinds: readonly AnyKind[] = KINDS): ExportedFile[] {
  const ctx = exportContext(input, kinds)
  const written = writtenKinds(kinds)
  const used = new Set<string>()
  return [
    ...written.flatMap(w =>
      'file' in w.writes.to ? kindFile(w.kind, w.writes, w.writes.to.file, ctx, used) : []
    ),
    ...written.flatMap(w =>
      'each' in w.writes.to ? recordFiles(w.kind, w.writes, w.writes.to.each, ctx, used) : []
    )
  ]
}

/** What the kinds' writers see of an export's input (a sync that writes what export writes builds the same). */
export function exportContext(
  input: ExportInput,
  kinds: readonly AnyKind[] = KINDS,
  options: Pick<ExportContext, 'alternateForms'> = {}
): ExportContext {
  const byKind = new Map(kinds.map(k => [k.kind, k]))
  const list = (kind: ResourceKind, all: boolean): unknown[] | undefined => {
    const name = byKind.get(kind)?.exports?.list
    if (name === undefined) return undefined
    return ((all ? input[allOf(name)] : undefined) ?? input[name]) as unknown[] | undefined
  }
  return {
    ownershipTag: input.ownershipTag,
    registry: input.registry ?? Registry.empty('', input.ownershipTag),
    mode: input.mode ?? 'self-hosted',
    namer: new Namer(kind => {
      const k = byKind.get(kind)
      return k && list(kind, true)?.map(r => ({ id: k.liveId(r) ?? '', name: k.liveName(r) }))
    }),
    secrets: new SecretNames(),
    ...options,
    all: (kind => list(kind, true)) as ExportContext['all'],
    selected: (kind => list(kind, false) ?? []) as ExportContext['selected']
  }
}

/** All of a kind's records in one file (none when there is nothing to write or say). */
function kindFile(
  kind: AnyKind,
  writes: ExportWrites<unknown>,
  file: string,
  ctx: ExportContext,
  used: Set<string>
): ExportedFile[] {
  const write = writes.writer(ctx)
  const records = ctx.selected(kind.kind).map(r => write(r))
  const notes = records.flatMap(r => r.notes ?? [])
  if (records.every(r => r.documents.length === 0) && notes.length === 0) return []
  const what = kind.nouns[1]
  return [exportedFile(kind, { name: file, what, title: what }, records, notes, ctx, used)]
}

/** A file per record. */
function recordFiles(
  kind: AnyKind,
  writes: ExportWrites<unknown>,
  each: (r: unknown) => ExportFile,
  ctx: ExportContext,
  used: Set<string>
): ExportedFile[] {
  const write = writes.writer(ctx)
  return ctx.selected(kind.kind).map(r => {
    const record = write(r)
    return exportedFile(kind, each(r), [record], record.notes ?? [], ctx, used)
  })
}

function exportedFile(
  kind: AnyKind,
  file: ExportFile,
  records: readonly ExportedRecord[],
  notes: readonly string[],
  ctx: ExportContext,
  used: Set<string>
): ExportedFile {
  const secrets = ctx.secrets.all.splice(0)
  const header = [
    `# Exported ${file.title} by obsdeploy export.`,
    ...notes.map(n => `# ${n}`),
    ...(secrets.length > 0
      ? [
          `# Secret variables these manifests need (secret-vars; the CLI: OBSDEPLOY_SECRET_<NAME>): ${secrets.join(', ')}`
        ]
      : [])
  ]
  const documents: Document[] = records.flatMap(r => r.documents)
  const leftOut = records.reduce((n, r) => n + (r.leftOut ?? 0), 0)
  const name = uniqueFileName(file.name, kind.nouns[0], f => used.has(f))
  used.add(name)
  return {
    name,
    text: `${header.join('\n')}\n${documents.map(doc => doc.toString({ lineWidth: 0 })).join('---\n')}`,
    kind: kind.kind,
    what: file.what,
    alerts: records.reduce((n, r) => n + r.carried, 0),
    ...(leftOut > 0 ? { alertsLeftOut: leftOut } : {})
  }
}

/**
 * `name` as a file name, `checkout.yaml`, or `checkout-2.yaml` and on while `taken` says a name is taken (`noun`
 * when nothing is left of the name). Export and sync name the files they add alike.
 */
export function uniqueFileName(name: string, noun: string, taken: (file: string) => boolean): string {
  const slugOf = (text: string) =>
    text
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60)
  const slug = slugOf(name) || slugOf(noun)
  let file = `${slug}.yaml`
  for (let n = 2; taken(file); n++) file = `${slug}-${n}.yaml`
  return file
}
