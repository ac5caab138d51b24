/**
 * The fair baseline of a cold plan: a plain node process that does only the work no plan can skip. It
 * downloads the same live lists a plan reads (the paths are given, with the same pagination) and
 * JSON.parse's them, and reads and js-yaml-parses the same manifest files. No validation, no planning.
 * A path given as `POST /mcp` is the plan's one question to the MCP endpoint (which tools it offers:
 * src/api/mcp.ts), asked the same way.
 *
 *   node bench/fair-baseline.mjs <manifest folder> <api url> <api key> <list path | POST /mcp>...
 *
 * Prints what it read as one JSON line.
 */
/* global fetch */
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { loadAll } from 'js-yaml'

const [dir, url, key, ...paths] = process.argv.slice(2)
if (!dir || !url || !key || paths.length === 0)
  throw new Error('usage: fair-baseline.mjs <folder> <api-url> <api-key> <list path>...')
const headers = { accept: 'application/json', authorization: `Bearer ${key}` }

async function getJson(target) {
  const res = await fetch(`${url}${target}`, { headers })
  const text = await res.text()
  // A route this server does not have (managed webhooks) is read and counted, as the tool reads it.
  return res.ok ? JSON.parse(text) : { data: [] }
}

/** The MCP endpoint's tool list, as the plan asks for it (a JSON-RPC POST that accepts a stream). */
async function tools(target) {
  const res = await fetch(`${url}${target}`, {
    method: 'POST',
    headers: {
      ...headers,
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json'
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} })
  })
  return [await res.text()]
}

/** A list as the tool reads it: the first page, then the rest with the server's page size. */
async function list(target) {
  if (target.startsWith('POST ')) return tools(target.slice(5))
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
  let documents = 0
  for (const file of files) documents += loadAll(await readFile(path.join(dir, file), 'utf8')).length
  return { files: files.length, documents }
}

const [lists, read] = await Promise.all([Promise.all(paths.map(list)), manifests()])
console.log(JSON.stringify({ items: lists.map(l => l.length), ...read }))
