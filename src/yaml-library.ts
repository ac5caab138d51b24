/**
 * The `yaml` library (eemeli/yaml), loaded on first use. js-yaml reads the manifests; `yaml` serves the
 * rarer needs: a file js-yaml refuses, positions js-yaml's events cannot give, `vars`, the report's harder
 * values and export. Loading it costs ~8% of a cold start's instructions that a clean `validate` never
 * needs (bench/RESULTS.md, section 12).
 *
 * Its users are synchronous, deep in the pipeline, so it is required rather than imported: a bundle carries
 * it as a CommonJS file of its own beside its entry, `yaml.cjs` (scripts/yaml-bundle.ts), which nothing
 * evaluates until it is asked for.
 */
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export type YamlLibrary = typeof import('yaml')

const requireHere = createRequire(import.meta.url)
// Run from the sources (tsx, Jest) this module is a .ts file and the package is at hand; a bundle requires
// its own copy, never a node_modules it happens to sit above.
const FROM_SOURCES = import.meta.url.endsWith('.ts')
let library: YamlLibrary | undefined

/**
 * The library. Callers take it before any `try` of theirs: a bundle without its yaml.cjs is a broken
 * installation, never a YAML error of the user's.
 */
export function yamlLibrary(): YamlLibrary {
  return (library ??= load())
}

function load(): YamlLibrary {
  if (FROM_SOURCES) return requireHere('yaml') as YamlLibrary
  try {
    return requireHere('./yaml.cjs') as YamlLibrary
  } catch (e) {
    // Not `new URL('./yaml.cjs', import.meta.url)`: the bundler takes that for an asset to copy.
    const where = path.join(path.dirname(fileURLToPath(import.meta.url)), 'yaml.cjs')
    throw new Error(
      `this installation of obsdeploy is incomplete: ${where} cannot be loaded (${e instanceof Error ? e.message.split('\n')[0] : String(e)}); its bundle folder must be copied whole`,
      { cause: e }
    )
  }
}
