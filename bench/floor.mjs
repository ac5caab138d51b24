/**
 * The floor of the action's `validate` (issue 38): the least any program doing its job could do. It reads
 * the manifest files under a folder, hashes each (sha256, as the loader does to find a file changed since),
 * parses them with js-yaml 4 (the fastest YAML parser on npm for these files: bench/RESULTS.md), and checks
 * every document with ONE zod schema (the project's zod, imported as an ES module, jitless as the action sets
 * it). No diagnostics, no plan, no output file: one line on stdout. bench/sections/cold-start.ts bundles it
 * as the action is bundled (ncc, minified) and counts the instructions of both.
 *
 *   node bench/floor.mjs <manifest folder>
 */
import { createHash } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import jsYaml from 'js-yaml-4'
import { z } from 'zod'

z.config({ jitless: true })
const dir = process.argv[2]
if (!dir) throw new Error('usage: floor.mjs <manifest folder>')

const Document = z.looseObject({ kind: z.string(), name: z.string().min(1) })

const files = (await readdir(dir, { recursive: true })).filter(f => /\.ya?ml$/.test(f)).sort()
const texts = await Promise.all(files.map(f => readFile(path.join(dir, f), 'utf8')))
let documents = 0
let invalid = 0
const digests = []
for (const text of texts) {
  digests.push(createHash('sha256').update(text).digest('hex'))
  for (const doc of jsYaml.loadAll(text, null, { schema: jsYaml.CORE_SCHEMA })) {
    documents++
    if (!Document.safeParse(doc).success) invalid++
  }
}
console.log(
  JSON.stringify({ files: files.length, documents, invalid, digest: digests.join('').slice(0, 16) })
)
