/**
 * Part of `npm run build`: the `yaml` library as a CommonJS file of its own, `yaml.cjs`, beside the entry of
 * each bundle folder given, with its licence notice as `yaml.licenses.txt` (which merge-licenses.ts folds
 * into the folder's licenses.txt). src/yaml-library.ts requires it on first use, so a run that never needs
 * the library never evaluates it. Minified in both folders (the CLI's own code is not): its frames in a
 * stack trace are the library's, not ours.
 */
import { writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'

interface NccOutput {
  code: string
  assets: Record<string, { source: string | Buffer }>
}
type Ncc = (entry: string, options: Record<string, unknown>) => Promise<NccOutput>

const LICENSES = 'yaml.licenses.txt'
const folders = process.argv.slice(2)
if (folders.length === 0) throw new Error('usage: yaml-bundle <bundle folder>...')

const requireHere = createRequire(import.meta.url)
const ncc = requireHere('@vercel/ncc') as Ncc
// The package's own CommonJS entry (its `require` export), bundled with what it requires.
const entry = requireHere.resolve('yaml')
const { code, assets } = await ncc(entry, { minify: true, quiet: true, license: LICENSES })
const notices = assets[LICENSES]
if (!notices) throw new Error(`ncc wrote no ${LICENSES}`)
for (const folder of folders) {
  writeFileSync(path.join(folder, 'yaml.cjs'), code)
  writeFileSync(path.join(folder, LICENSES), notices.source)
}
