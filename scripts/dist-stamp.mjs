/**
 * dist/ is committed, and the e2e tests run it, so a green test run proves nothing about src/ while dist/
 * is older than src/. `npm run build` ends with `node scripts/dist-stamp.mjs`, which writes a hash of what
 * was bundled into dist/ (STAMP_FILE); Jest's global setup (test/support/fresh-dist.mjs) recomputes it
 * from the working tree and stops the run when the two differ. The hash depends on the sources only, so
 * a fresh build stays byte for byte the same. Plain JavaScript: the build and Jest's global setup load it
 * without a TypeScript step.
 */
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const STAMP_FILE = 'dist/sources.sha256'

/**
 * What the bundle is built from: the sources, the compiler settings, the locked dependencies, the build
 * command (package.json's `scripts.build` only: a bundler option such as ncc's -m changes every byte) and
 * the script that writes yaml.cjs beside each bundle.
 */
const INPUTS = ['src', 'tsconfig.json', 'package-lock.json', 'package.json', 'scripts/yaml-bundle.ts']

/** The stamp's text: a sha256 over each input file's path and text, in a fixed order, and what it covers. */
export function stamp(root) {
  const hash = createHash('sha256')
  for (const file of INPUTS.flatMap(input => filesUnder(root, input)).sort()) {
    hash.update(`${file}\0${text(root, file)}\0`)
  }
  return `${hash.digest('hex')}  ${INPUTS.join(' ')}\n`
}

/** Why dist/ was not built from the sources under root, or undefined when it was. */
export function distStaleness(root) {
  let committed
  try {
    committed = readFileSync(path.join(root, STAMP_FILE), 'utf8')
  } catch {
    return `${STAMP_FILE} is missing`
  }
  return committed === stamp(root) ? undefined : `${STAMP_FILE} does not match ${INPUTS.join(', ')}`
}

/** A file as itself, a directory as every file under it; relative to root, with forward slashes. */
function filesUnder(root, rel) {
  if (!statSync(path.join(root, rel)).isDirectory()) return [rel]
  return readdirSync(path.join(root, rel), { withFileTypes: true, recursive: true })
    .filter(e => e.isFile())
    .map(e => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
}

function text(root, file) {
  const content = readFileSync(path.join(root, file), 'utf8').replace(/\r\n/g, '\n')
  if (file === 'package.json') return String(JSON.parse(content).scripts?.build)
  if (file !== 'package-lock.json') return content
  // The package's own version is not bundled from the lockfile (src/version.ts holds it): `npm version`
  // sets it after the release build, and must not make that build stale.
  const lock = JSON.parse(content)
  delete lock.version
  if (lock.packages?.['']) delete lock.packages[''].version
  return JSON.stringify(lock)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('..', import.meta.url))
  writeFileSync(path.join(root, STAMP_FILE), stamp(root))
}
