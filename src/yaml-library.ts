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

export type YamlLibrary = typeof import('yaml')

const requireHere = createRequire(import.meta.url)
// Run from the sources (tsx, Jest) this module is a .ts file and the package is at hand; a bundle requires
// its own copy, never a node_modules it happens to sit above.
const FROM_SOURCES = import.meta.url.endsWith('.ts')
let library: YamlLibrary | undefined

export function yamlLibrary(): YamlLibrary {
  return (library ??= requireHere(FROM_SOURCES ? 'yaml' : './yaml.cjs') as YamlLibrary)
}
