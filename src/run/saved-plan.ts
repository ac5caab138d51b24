/**
 * A saved plan (`apply --plan saved.json`): reading it, checking it, and applying its changes as recorded.
 *
 * Why applying the recorded changes is exactly as strict as planning again (what `apply --plan` did before):
 * - Planning again refuses when the new plan has errors, is for another stack or mode, or when either of
 *   its fingerprints differs from the saved plan's; otherwise it applies the operations of the NEW plan.
 * - A plan is a pure function of the manifest files' bytes (found by the patterns), the settings and
 *   variables that shape it (PlanSettings, `vars`, `secret-vars`), the live state as read, and the tool's
 *   version. computePlan reads no clock but for `createdAt`, no environment, nothing else.
 * - `plan` writes, beside the plan, an apply section (one stack, no secret-vars, no errors): a digest of
 *   the patterns, the variables, the settings and each file's text by path (`inputs`); a digest of the whole
 *   live state as read, every record of every list and the service (`live`); what each change's
 *   operations read of its desired record (`records`, the kind's SavedForm); the dashboard facts. A seal,
 *   an HMAC of the whole file keyed with the API credentials, proves the file is as the tool wrote it: the
 *   records are the planner's own, not an edit.
 * - `apply` uses the section only when the seal holds for its own credentials, the tool and section
 *   versions are its own, the plan has no errors and is for its stack and mode, the same patterns find the
 *   same files with the same digests under the same settings and variables, and the live state read now
 *   has the same digest and managed prefix. Then planning again would compute the very same plan: the same
 *   fingerprints (so no refusal) and the same changes, whose operations are the ones the records rebuild
 *   (SavedForm's promise). The registry is the same function of the same live state.
 * - When anything differs or cannot be checked, the run plans again, compares fingerprints and refuses
 *   exactly as before. So this never applies where planning again would refuse, and never applies
 *   anything planning again would not.
 * One assumption: the version names the planner's code (as a release's does). Two builds that share a
 * version string but plan differently (between releases) would take each other's sealed plans.
 * The live digest is a superset of what the planner reads (volatile fields such as an alert's state
 * included): any change there sends the run down the path that plans again, which applies when the
 * fingerprints that matter still agree.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { credentialOf } from '../config/credential.js'
import type { Auth, Config } from '../config/types.js'
import { hasErrors } from '../diagnostics.js'
import { errorMessage } from '../error-message.js'
import type { AnyKind } from '../kinds/index.js'
import {
  recordsOf,
  type LiveState,
  type Operation,
  type OperationContext,
  type PlannedChange,
  type PlanSettings
} from '../kinds/kind.js'
import type { Json } from '../json.js'
import type { ManifestSet } from '../manifest/load.js'
import {
  APPLY_SECTION_VERSION,
  isActionable,
  planSchemas,
  type ApplySection,
  type PlanFile,
  type Plan
} from '../plan/types.js'
import { readRegistry, type PlanOutcome } from '../planner/planner.js'
import type { PlanPolicies } from '../policy/check.js'
import { VERSION } from '../version.js'

/** A plan file read for `apply --plan`. */
export interface SavedPlanFile {
  plan: PlanFile
  /**
   * The file's text, when its apply section's seal holds for the credentials it was read with: the file is
   * then exactly as this version of the tool wrote it, so `plan` is not checked against the schema again.
   */
  sealed?: string
}

/**
 * A plan JSON from an earlier plan run, or why it cannot be used. With `auth`, a plan whose seal holds for
 * it is taken as written (see SavedPlanFile).
 */
export async function readSavedPlan(file: string, cwd: string, auth?: Auth): Promise<SavedPlanFile | string> {
  try {
    const bytes = await readFile(path.resolve(cwd, file))
    const text = bytes.toString('utf8')
    const json = JSON.parse(text) as {
      apply?: { version?: unknown; seal?: unknown }
      tool?: { version?: unknown }
    } | null
    // An apply section of another version is not this tool's to read: the plan is applied by planning again.
    const section = json?.apply
    if (section !== undefined && section?.version !== APPLY_SECTION_VERSION) delete json!.apply
    else if (auth && json?.tool?.version === VERSION && sealHolds(bytes, section, auth))
      return { plan: json as unknown as Plan, sealed: text }
    const saved = planSchemas().PlanFile.safeParse(json)
    return saved.success ? { plan: saved.data } : `${file} is not a plan file of this tool (schemaVersion 1)`
  } catch (e) {
    return `the saved plan ${file} cannot be read: ${errorMessage(e)}`
  }
}

/** A stack's saved plan, why the saved plan cannot be used, or that it holds no plan for the stack. */
export type SavedForStack = Plan | string | { missing: string }

/**
 * One stack's saved plan. A plan file of many stacks holds those its run planned (on a pull request, the
 * changed ones): a stack it does not hold may be applied only when its plan has nothing to apply.
 */
export function savedPlanFor(saved: SavedPlanFile | string, stack: string, file: string): SavedForStack {
  if (typeof saved === 'string') return saved
  if (!('stacks' in saved.plan)) return saved.plan
  const plans = saved.plan.stacks
  return (
    plans.find(p => p.stack === stack) ?? {
      missing: `the saved plan ${file} has no plan for stack "${stack}" (it has ${plans.map(p => `"${p.stack}"`).join(', ') || 'none'}); plan it again and review it`
    }
  )
}

/** The applied plan must be the reviewed one: same live state, same manifests. */
export function compareWithSavedPlan(saved: Plan | string, file: string, current: Plan): string | undefined {
  if (typeof saved === 'string') return saved
  if (saved.stack !== current.stack || saved.mode !== current.mode) {
    return `the saved plan ${file} is for stack "${saved.stack}" (${saved.mode}), not "${current.stack}" (${current.mode})`
  }
  if (saved.fingerprint.desired !== current.fingerprint.desired) {
    return 'the manifests changed since the saved plan was made; plan again and review it'
  }
  if (saved.fingerprint.live !== current.fingerprint.live) {
    return 'the live state changed since the saved plan was made (someone edited a dashboard or alert?); plan again and review it'
  }
  return undefined
}

/** What the seal field holds while the seal is computed over the file's text. */
const UNSEALED = 'unsealed'

/** The seal's key: the run's API credentials (a plan sealed with one key does not verify with another). */
const sealKey = (auth: Auth): string => credentialOf(auth) ?? 'none'

/** The seal of a text given in parts (a file's bytes around its seal field are not copied into one). */
function hmac(auth: Auth, ...parts: ReadonlyArray<string | Uint8Array>): string {
  const mac = createHmac('sha256', sealKey(auth))
  for (const part of parts) mac.update(part)
  return `hmac-sha256:${mac.digest('base64url')}`
}

/** The seal field as it stands while the seal is computed. */
const UNSEALED_FIELD = `"seal":"${UNSEALED}"`

/**
 * The plan file's text, its apply section sealed: the plan as JSON indented for people, the apply
 * section last and on one line (it is for the tool, and indenting its request bodies would more than
 * double the file). The seal is the HMAC of that text with the seal UNSEALED, put in its place (its last
 * field). In the parts it is made of, not joined: a plan of thousands of changes is written part by part
 * (at 5,000 dashboards the file is 6.6 MB, and each whole copy of it a large object that stays until a full
 * collection).
 */
export function sealedPlanParts(plan: Plan & { apply: ApplySection }, auth: Auth): string[] {
  const { apply, ...rest } = plan
  const section = JSON.stringify({ ...apply, seal: UNSEALED })
  const at = section.lastIndexOf(UNSEALED_FIELD)
  const parts = [
    JSON.stringify(rest, null, 2).slice(0, -2),
    ',\n  "apply": ',
    section.slice(0, at),
    UNSEALED_FIELD,
    `${section.slice(at + UNSEALED_FIELD.length)}\n}\n`
  ]
  parts[3] = `"seal":"${hmac(auth, ...parts)}"`
  return parts
}

/** Whether the file carries the seal these credentials make of it (over its bytes, the seal UNSEALED). */
function sealHolds(bytes: Buffer, section: { seal?: unknown } | undefined, auth: Auth): boolean {
  if (typeof section?.seal !== 'string') return false
  const field = Buffer.from(`"seal":"${section.seal}"`)
  const at = bytes.lastIndexOf(field)
  if (at < 0) return false
  const actual = Buffer.from(section.seal)
  const wanted = Buffer.from(
    hmac(auth, bytes.subarray(0, at), UNSEALED_FIELD, bytes.subarray(at + field.length))
  )
  return actual.length === wanted.length && timingSafeEqual(actual, wanted)
}

/**
 * The text of the plan file an apply of a sealed saved plan writes: the saved text (exactly what writing
 * the plan gives) with this run's time and command, without the apply section. Top-level fields are the
 * only ones indented by two spaces, and the apply section is the last.
 */
export function appliedPlanText(sealed: string, createdAt: string, command: string): string {
  const end = sealed.lastIndexOf(',\n  "apply": {')
  return `${sealed.slice(0, end)}\n}\n`
    .replace(/\n {2}"createdAt": "[^"]*"/, () => `\n  "createdAt": ${JSON.stringify(createdAt)}`)
    .replace(/\n {2}"command": "[^"]*"/, () => `\n  "command": ${JSON.stringify(command)}`)
}

const sha256 = (text: string) => `sha256:${createHash('sha256').update(text).digest('base64url')}`

/**
 * The digest of the whole live state as read (every list, every field, the service): the bytes of
 * `JSON.stringify(live)`, hashed list item by list item, so that no string of the whole state is built
 * (tens of megabytes at thousands of dashboards, on every plan of one stack).
 */
export function liveDigest(live: LiveState): string {
  const hash = createHash('sha256').update('{')
  let fields = 0
  for (const [key, value] of Object.entries(live)) {
    // Copies come and go with every pull request's push: they are no part of what a plan is made from.
    if (value === undefined || key === 'previewCopies') continue
    hash.update(`${fields++ > 0 ? ',' : ''}${JSON.stringify(key)}:`)
    if (!Array.isArray(value)) {
      hash.update(JSON.stringify(value))
      continue
    }
    hash.update('[')
    value.forEach((item: unknown, i) => hash.update(`${i > 0 ? ',' : ''}${JSON.stringify(item) ?? 'null'}`))
    hash.update(']')
  }
  return `sha256:${hash.update('}').digest('base64url')}`
}

/**
 * The digest of what shapes a plan besides the live state: the settings (but the managed prefix, which the
 * live read settles and which is compared on its own), the patterns, the variables, the names of the secret
 * variables, and each manifest file's text digest by path.
 */
export function inputsDigest(
  config: Pick<Config, 'manifests' | 'vars' | 'secretVars'>,
  settings: PlanSettings,
  files: ReadonlyMap<string, string>
): string {
  return sha256(
    JSON.stringify({
      settings: { ...settings, managedPrefix: undefined },
      patterns: config.manifests,
      vars: config.vars,
      secretVars: Object.keys(config.secretVars).sort(),
      files: [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    })
  )
}

/**
 * The apply section of a plan just computed, sealed later (sealedPlanParts), or why it has none: the
 * `apply --plan` of such a plan plans again.
 */
export function applySectionOf(input: {
  config: Pick<Config, 'manifests' | 'vars' | 'secretVars'>
  settings: PlanSettings
  manifests: ManifestSet
  /** The stack's plan-time policy rules, if any (policy/check.ts). */
  planRules: PlanPolicies | undefined
  live: string
  outcome: PlanOutcome
  kinds: readonly AnyKind[]
}): ApplySection | string {
  const { outcome, settings } = input
  if (Object.keys(input.config.secretVars).length > 0)
    return 'secret-vars are set (a saved plan never holds request bodies then)'
  if (!input.manifests.digests) return 'the manifests were not read from files'
  if (hasErrors(outcome.plan.diagnostics)) return 'the plan has errors'
  if (input.planRules !== undefined)
    return 'its policies have rules over the plan, which an apply checks again (labels may differ)'
  const kinds = new Map(input.kinds.map(k => [k.kind, k]))
  const octx: OperationContext = { settings, dashboards: outcome.dashboards, registry: outcome.registry }
  const records: Record<string, Json> = {}
  for (const pc of outcome.planned) {
    // No kind has operations for a no-op or a deferred change: skipped without building them.
    if (!isActionable(pc.change)) continue
    const kind = kinds.get(pc.change.kind)!
    if (kind.operations(pc, octx).length === 0) continue
    if (!kind.saved) return `${pc.change.kind} changes are not carried by a saved plan yet`
    records[pc.change.address] = kind.saved.save(pc.desired?.value)
  }
  const facts = outcome.dashboards
  return {
    version: APPLY_SECTION_VERSION,
    inputs: inputsDigest(input.config, settings, input.manifests.digests),
    live: input.live,
    records,
    dashboards: {
      desired: [...facts.desired].map(([name, d]) => ({
        name,
        address: d.address,
        ...(d.liveId === undefined ? {} : { liveId: d.liveId }),
        tileIds: [...d.tileIds],
        ...(d.pinnedNames.size > 0 ? { pinnedNames: [...d.pinnedNames] } : {})
      })),
      live: [...facts.live].map(([id, l]) => ({
        id,
        address: l.address,
        ...(l.desiredName === undefined ? {} : { desiredName: l.desiredName }),
        deleted: l.deleted,
        droppedTileIds: [...l.droppedTileIds]
      }))
    },
    seal: UNSEALED
  }
}

/** A saved plan whose apply section may be used, once its inputs and live state are checked. */
export interface Sealed {
  plan: Plan & { apply: ApplySection }
  /** The file's text, as written. */
  text: string
  /** Whether its live read includes the managed service (a ServiceSettings manifest). */
  readsService: boolean
}

/** The saved plan, when its section is sealed for these credentials and fits this run; or why not. */
export function sealedPlan(saved: SavedPlanFile | string, config: Config<'apply'>): Sealed | string {
  if (typeof saved === 'string') return saved
  if ('stacks' in saved.plan) return 'it is a plan of many stacks'
  const plan = saved.plan
  if (!plan.apply) return 'it has no apply section of this version'
  if (plan.tool.version !== VERSION) return `it was made by version ${plan.tool.version}`
  if (saved.sealed === undefined) return 'its seal does not hold (edited, or made with other credentials)'
  if (hasErrors(plan.diagnostics)) return 'it has errors'
  if (plan.stack !== config.stack || plan.mode !== config.mode) return 'it is for another stack or mode'
  return {
    plan: plan as Sealed['plan'],
    text: saved.sealed,
    readsService: config.mode === 'managed' && plan.changes.some(c => c.kind === 'ServiceSettings')
  }
}

/**
 * The plan outcome the saved plan records, to be applied as planning again would have computed it, or why
 * not. `live` has the digest the plan records (checked by the caller).
 */
export function restoreOutcome(
  sealed: Sealed,
  live: LiveState,
  settings: PlanSettings,
  kinds: readonly AnyKind[]
): { outcome: PlanOutcome; operations: (pc: PlannedChange) => Operation[] } | string {
  const { plan } = sealed
  const section = plan.apply
  const byKind = new Map(kinds.map(k => [k.kind, k]))
  const planned: PlannedChange[] = []
  for (const change of plan.changes) {
    if (!Object.hasOwn(section.records, change.address)) continue
    const kind = byKind.get(change.kind)
    if (!kind?.saved) return `${change.kind} changes are not carried by a saved plan`
    let liveRecord: unknown
    if (change.id !== undefined && kind.live) {
      const records = recordsOf(live, kind.kind)
      liveRecord = Array.isArray(records) ? records.find(r => kind.liveId(r) === change.id) : undefined
      if (liveRecord === undefined) return `the live ${change.kind} ${change.id} is not in the live state`
    }
    planned.push({ change, live: liveRecord })
  }
  const dashboards: PlanOutcome['dashboards'] = {
    desired: new Map(
      section.dashboards.desired.map(d => [
        d.name,
        {
          address: d.address,
          liveId: d.liveId,
          tileIds: new Map(d.tileIds),
          pinnedNames: new Map(d.pinnedNames ?? [])
        }
      ])
    ),
    live: new Map(
      section.dashboards.live.map(l => [
        l.id,
        {
          address: l.address,
          desiredName: l.desiredName,
          deleted: l.deleted,
          droppedTileIds: new Set(l.droppedTileIds)
        }
      ])
    )
  }
  const registry = readRegistry(live, settings, kinds)
  // Every record is read back before anything is sent: one that is not of its kind's form stops it here.
  const octx: OperationContext = { settings, dashboards, registry }
  const built = new Map<PlannedChange, Operation[]>()
  for (const pc of planned) {
    const ops = byKind.get(pc.change.kind)!.saved!.operations(section.records[pc.change.address], pc, octx)
    if (ops === undefined) return `its record of ${pc.change.address} is not of its kind's form`
    built.set(pc, ops)
  }
  return { outcome: { plan, planned, dashboards, registry }, operations: pc => built.get(pc)! }
}
