/**
 * `obsdeploy export --out observability/`: onboarding in one command. Reads dashboards and alerts from
 * the live API (list calls only) and writes one manifest file per dashboard, with its alerts.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import picomatch from 'picomatch'
import { createApi } from '../api/client.js'
import type { Config } from '../config/types.js'
import { ownershipTag } from '../kinds/ownership.js'
import type { Logger } from '../log.js'
import { readLiveState } from '../live/read.js'
import { errorMessage } from '../error-message.js'
import { exportManifests } from './manifests.js'

/** Where the command writes: the CLI passes its own io. */
export interface ExportIo {
  stdout: (text: string) => void
  stderr: (text: string) => void
  cwd: string
}

export interface ExportOptions {
  out?: string
  /** Keep dashboards with any of these tags. */
  tags: string[]
  /** Keep dashboards whose name matches any of these globs. */
  names: string[]
  /** Keep only dashboards this stack owns. */
  owned: boolean
  io: ExportIo
  log: Logger
}

export async function exportCommand(config: Config<'export'>, options: ExportOptions): Promise<number> {
  if (!options.out) {
    options.io.stderr('obsdeploy export: --out <folder> is required\n')
    return 2
  }
  const api = createApi(config, { log: options.log })
  try {
    const live = await readLiveState(api, { service: false })
    const tag = ownershipTag(config.stack)
    const nameMatch = options.names.length > 0 ? picomatch(options.names) : undefined
    const dashboards = live.dashboards.filter(
      d =>
        (options.tags.length === 0 || d.tags.some(t => options.tags.includes(t))) &&
        (!nameMatch || nameMatch(d.name)) &&
        (!options.owned || d.tags.includes(tag))
    )
    const files = exportManifests({
      dashboards,
      allDashboards: live.dashboards,
      alerts: live.alerts,
      sources: live.sources,
      webhooks: live.webhooks,
      ownershipTag: tag
    })
    const dir = path.resolve(options.io.cwd, options.out)
    await mkdir(dir, { recursive: true })
    for (const f of files) {
      await writeFile(path.join(dir, f.name), f.text)
      options.io.stdout(
        `${path.join(options.out, f.name)}: dashboard "${f.dashboard}", ${f.alerts} alert(s)\n`
      )
    }
    options.io.stderr(
      `exported ${files.length} of ${live.dashboards.length} dashboard(s) in ${api.stats.requests} request(s)\n`
    )
    return 0
  } catch (e) {
    options.io.stderr(`obsdeploy export: ${errorMessage(e)}\n`)
    return 1
  } finally {
    await api.close()
  }
}
