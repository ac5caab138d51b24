/**
 * The plain reader (issue 31): the fastest honest process that does only the work no plan can skip. It
 * downloads the same live lists a plan reads (the paths are given, with the same pagination) over one
 * keep-alive undici pool, all lists at once, and JSON.parse's them; and reads every manifest file, all
 * at once, and parses them with js-yaml 4.3 (the fastest YAML parser on npm for these files, measured:
 * bench/RESULTS.md). No validation, no planning. The cold plan is measured against this process.
 *
 *   node bench/plain-reader.mjs <manifest folder> <api url> <api key> <list path>...
 *
 * Prints what it read as one JSON line.
 */
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import jsYaml from 'js-yaml-4'
import { Agent, request } from 'undici'

const [dir, url, key, ...paths] = process.argv.slice(2)
if (!dir || !url || !key || paths.length === 0)
  throw new Error('usage: plain-reader.mjs <folder> <api-url> <api-key> <list path>...')
const headers = { accept: 'application/json', authorization: `Bearer ${key}` }
const agent = new Agent({ connections: 16, pipelining: 1 })

async function getJson(target) {
  const res = await request(`${url}${target}`, { headers, dispatcher: agent })
  const text = await res.body.text()
  // A route this server does not have (managed webhooks) is read and counted, as the tool reads it.
  return res.statusCode === 200 ? JSON.parse(text) : { data: [] }
}

/** A list as the tool reads it: the first page, then the rest with the server's page size. */
async function list(target) {
  const first = await getJson(target)
  const items = Array.isArray(first) ? [...first] : [...(first.data ?? [])]
  const total = first.meta?.total
  if (total === undefined || items.length >= total || items.length === 0) return items
  const limit = first.meta?.limit ?? items.length
  for (let offset = items.length; offset < total;) {
    const page = await getJson(`${target}?limit=${limit}&offset=${offset}`)
    if (page.data.length === 0) break
    items.push(...page.data)
    offset += page.data.length
  }
  return items
}

async function manifests() {
  const files = (await readdir(dir, { recursive: true })).filter(f => /\.ya?ml$/.test(f)).sort()
  const texts = await Promise.all(files.map(f => readFile(path.join(dir, f), 'utf8')))
  let documents = 0
  for (const text of texts) documents += jsYaml.loadAll(text, null, { schema: jsYaml.CORE_SCHEMA }).length
  return { files: files.length, documents }
}

const [lists, read] = await Promise.all([Promise.all(paths.map(list)), manifests()])
await agent.close()
console.log(JSON.stringify({ items: lists.map(l => l.length), ...read }))
