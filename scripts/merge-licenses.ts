/** Last step of `npm run build`: one licenses.txt per bundle folder given (see scripts/licenses.ts). */
import { fileURLToPath } from 'node:url'
import { lockedPackages, mergeLicenseFiles } from './licenses.js'

const packages = lockedPackages(fileURLToPath(new URL('../package-lock.json', import.meta.url)))
const folders = process.argv.slice(2)
if (folders.length === 0) throw new Error('usage: merge-licenses <bundle folder>...')
for (const folder of folders) {
  const names = mergeLicenseFiles(folder, name => packages.has(name))
  if (names.length === 0) throw new Error(`${folder}: ncc wrote no licence notices (was --license given?)`)
}
