/**
 * What an ncc build of one entry makes in its output folder: index.js, the chunks it loads (directly or
 * through other chunks), the CommonJS side files they require (yaml.cjs), package.json and licenses.txt. Anything else in the folder is left over from an
 * older build: no entry loads it, and check-dist (which removes dist/ before building) fails on it.
 */
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'

/**
 * `__nccwpck_require__.e(413)` in an entry, `__webpack_require__.e(/* import() *\/ 991)` in a chunk; in a
 * minified build (the action's) the loader's name is mangled: `r.e(413)`.
 */
const CHUNK_LOAD = /(?<![\w$.])[\w$]+\.e\(\s*(?:\/\*[^*]*\*\/\s*)?(\d+)\s*\)/g

/** A CommonJS file beside the entry that the code requires by name on first use (src/yaml-library.ts). */
const SIDE_FILE = /["']\.\/([\w-]+\.cjs)["']/g

export interface Bundle {
  /** The files the build makes, relative to the folder, sorted. */
  made: string[]
  /** Chunks that some file loads but that are missing from the folder. */
  missing: string[]
}

export function bundleFiles(folder: string): Bundle {
  const made = new Set(['index.js', 'package.json', 'licenses.txt'])
  const missing: string[] = []
  const queue = ['index.js']
  while (queue.length > 0) {
    const file = path.join(folder, queue.shift()!)
    const code = readFileSync(file, 'utf8')
    for (const [, side] of code.matchAll(SIDE_FILE)) {
      if (made.has(side!)) continue
      made.add(side!)
      if (!existsSync(path.join(folder, side!))) missing.push(side!)
    }
    for (const [, id] of code.matchAll(CHUNK_LOAD)) {
      const chunk = `${id}.index.js`
      if (made.has(chunk)) continue
      made.add(chunk)
      if (existsSync(path.join(folder, chunk))) queue.push(chunk)
      else missing.push(chunk)
    }
  }
  return { made: [...made].sort(), missing }
}
