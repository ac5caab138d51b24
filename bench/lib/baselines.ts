/**
 * What the tool is compared with: plain undici loops that do only the network part, the way a minimal
 * client would, with no validation, planning or pacing.
 */
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { loadAll } from 'js-yaml'
import { Agent, request } from 'undici'
import type { Target } from './config.js'

const base = '/api/v2'

function headers(target: Target, body: boolean): Record<string, string> {
  const h: Record<string, string> = {
    accept: 'application/json',
    authorization: `Bearer ${target.credentials.apiKey}`
  }
  if (body) h['content-type'] = 'application/json'
  return h
}

async function getJson(agent: Agent, target: Target, path: string): Promise<unknown> {
  const res = await request(`${target.url}${path}`, {
    method: 'GET',
    headers: headers(target, false),
    dispatcher: agent
  })
  const text = await res.body.text()
  if (res.statusCode !== 200) throw new Error(`GET ${path}: HTTP ${res.statusCode}`)
  return JSON.parse(text)
}

/** A list as the tool reads it: the first page, then the rest with the server's page size. */
async function list(agent: Agent, target: Target, collection: string): Promise<unknown[]> {
  const path = `${base}/${collection}`
  const first = (await getJson(agent, target, path)) as {
    data: unknown[]
    meta?: { total?: number; limit?: number }
  }
  const items = [...first.data]
  const total = first.meta?.total
  if (total === undefined || items.length >= total || items.length === 0) return items
  const limit = first.meta?.limit ?? items.length
  for (let offset = items.length; offset < total;) {
    const page = (await getJson(agent, target, `${path}?limit=${limit}&offset=${offset}`)) as {
      data: unknown[]
    }
    if (page.data.length === 0) break
    items.push(...page.data)
    offset += page.data.length
  }
  return items
}

/** The physical limit of a plan's read: the same list calls, in parallel, JSON.parse'd. */
export async function readListsPlain(target: Target): Promise<{ dashboards: number; alerts: number }> {
  const agent = new Agent({ connections: 32 })
  try {
    const [dashboards, alerts] = await Promise.all([
      list(agent, target, 'dashboards'),
      list(agent, target, 'alerts'),
      list(agent, target, 'sources'),
      list(agent, target, 'webhooks')
    ])
    return { dashboards: dashboards.length, alerts: alerts.length }
  } finally {
    await agent.close()
  }
}

/** The manifests' share of the fair baseline: every YAML file under `dir`, read and js-yaml-parsed. */
export async function readManifestsPlain(dir: string): Promise<number> {
  const files = (await readdir(dir, { recursive: true })).filter(f => /\.ya?ml$/.test(f))
  let documents = 0
  for (const file of files) documents += loadAll(await readFile(path.join(dir, file), 'utf8')).length
  return documents
}

async function pool<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<void>
): Promise<void> {
  let next = 0
  const worker = async () => {
    while (next < items.length) await work(items[next++]!)
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker))
}

/** A Terraform-style provider: list the ids, then one GET per dashboard and per alert. */
export async function readPerResource(
  target: Target,
  concurrency: number
): Promise<{ dashboards: number; alerts: number }> {
  const agent = new Agent({ connections: 32 })
  try {
    const [dashboards, alerts] = await Promise.all([
      list(agent, target, 'dashboards'),
      list(agent, target, 'alerts'),
      list(agent, target, 'sources'),
      list(agent, target, 'webhooks')
    ])
    const paths = [
      ...dashboards.map(d => `${base}/dashboards/${(d as { id: string }).id}`),
      ...alerts.map(a => `${base}/alerts/${(a as { id: string }).id}`)
    ]
    let read = 0
    await pool(paths, concurrency, async path => {
      await getJson(agent, target, path)
      read++
    })
    if (read !== paths.length) throw new Error(`read ${read} of ${paths.length}`)
    return { dashboards: dashboards.length, alerts: alerts.length }
  } finally {
    await agent.close()
  }
}

/** The same POST /dashboards bodies, `concurrency` at a time. */
export async function postAll(
  target: Target,
  bodies: readonly unknown[],
  concurrency: number
): Promise<void> {
  const agent = new Agent({ connections: 32 })
  try {
    await pool(bodies, concurrency, async body => {
      const res = await request(`${target.url}${base}/dashboards`, {
        method: 'POST',
        headers: headers(target, true),
        body: JSON.stringify(body),
        dispatcher: agent
      })
      const text = await res.body.text()
      if (res.statusCode !== 200) throw new Error(`POST: HTTP ${res.statusCode}: ${text.slice(0, 200)}`)
      JSON.parse(text)
    })
  } finally {
    await agent.close()
  }
}
