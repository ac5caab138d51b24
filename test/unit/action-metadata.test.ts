/**
 * action.yml is what GitHub and the Marketplace read; the README table is what a user reads; INPUTS and
 * OUTPUTS in src/config/ are what the code uses. These tests hold the three to one another and to the
 * rules GitHub applies to action metadata.
 */
import { readFileSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from '@jest/globals'
import { parse } from 'yaml'
import { describeInput, INPUTS } from '../../src/config/inputs.js'
import { OUTPUTS } from '../../src/config/outputs.js'
import { readActionInputs } from '../../src/github/inputs.js'

const root = fileURLToPath(new URL('../../', import.meta.url))
const read = (file: string) => readFileSync(path.join(root, file), 'utf8')

interface ActionMetadata {
  name?: unknown
  description?: unknown
  author?: unknown
  branding?: { icon?: unknown; color?: unknown }
  inputs: Record<string, { description?: unknown; required?: unknown; default?: unknown }>
  outputs: Record<string, { description?: unknown }>
  runs?: { using?: unknown; main?: unknown }
}

const action = parse(read('action.yml')) as ActionMetadata

// GitHub's metadata syntax reference: "branding.color" and the "exhaustive list of all currently supported
// icons" (Feather v4.28.0 without the brand icons and coffee, columns, divide*, frown, hexagon, key, meh,
// mouse-pointer, smile, tool, x-octagon). Any other value is refused when publishing to the Marketplace.
const MARKETPLACE_COLORS = [
  'white',
  'black',
  'yellow',
  'blue',
  'green',
  'orange',
  'red',
  'purple',
  'gray-dark'
]
const MARKETPLACE_ICONS =
  `activity airplay alert-circle alert-octagon alert-triangle align-center align-justify
align-left align-right anchor aperture archive arrow-down-circle arrow-down-left arrow-down-right arrow-down
arrow-left-circle arrow-left arrow-right-circle arrow-right arrow-up-circle arrow-up-left arrow-up-right arrow-up
at-sign award bar-chart-2 bar-chart battery-charging battery bell-off bell bluetooth bold book-open book bookmark
box briefcase calendar camera-off camera cast check-circle check-square check chevron-down chevron-left
chevron-right chevron-up chevrons-down chevrons-left chevrons-right chevrons-up circle clipboard clock
cloud-drizzle cloud-lightning cloud-off cloud-rain cloud-snow cloud code command compass copy corner-down-left
corner-down-right corner-left-down corner-left-up corner-right-down corner-right-up corner-up-left corner-up-right
cpu credit-card crop crosshair database delete disc dollar-sign download-cloud download droplet edit-2 edit-3 edit
external-link eye-off eye fast-forward feather file-minus file-plus file-text file film filter flag folder-minus
folder-plus folder gift git-branch git-commit git-merge git-pull-request globe grid hard-drive hash headphones
heart help-circle home image inbox info italic layers layout life-buoy link-2 link list loader lock log-in log-out
mail map-pin map maximize-2 maximize menu message-circle message-square mic-off mic minimize-2 minimize
minus-circle minus-square minus monitor moon more-horizontal more-vertical move music navigation-2 navigation
octagon package paperclip pause-circle pause percent phone-call phone-forwarded phone-incoming phone-missed
phone-off phone-outgoing phone pie-chart play-circle play plus-circle plus-square plus pocket power printer radio
refresh-ccw refresh-cw repeat rewind rotate-ccw rotate-cw rss save scissors search send server settings share-2
share shield-off shield shopping-bag shopping-cart shuffle sidebar skip-back skip-forward slash sliders smartphone
speaker square star stop-circle sun sunrise sunset table tablet tag target terminal thermometer thumbs-down
thumbs-up toggle-left toggle-right trash-2 trash trending-down trending-up triangle truck tv type umbrella
underline unlock upload-cloud upload user-check user-minus user-plus user-x user users video-off video voicemail
volume-1 volume-2 volume-x volume watch wifi-off wifi wind x-circle x-square x zap-off zap zoom-in zoom-out`.split(
    /\s+/
  )

/** A default as the runner sees it: block scalars (`|`) keep one final newline, which getInput trims. */
const normalDefault = (value: unknown): string | undefined =>
  value === undefined || value === null ? undefined : String(value).replace(/\n$/, '')

/** The rows of the README table between `<!-- NAME:start ... -->` and `<!-- NAME:end -->`, cells unescaped. */
function readmeTable(name: 'inputs' | 'outputs'): string[][] {
  const readme = read('README.md')
  const start = readme.indexOf(`<!-- ${name}:start`)
  const end = readme.indexOf(`<!-- ${name}:end -->`)
  if (start < 0 || end < start) throw new Error(`README.md lacks the ${name} markers`)
  return readme
    .slice(readme.indexOf('\n', start) + 1, end)
    .split('\n')
    .filter(line => line.startsWith('|') && !/^\|\s*(Input|Output)\s*\|/.test(line) && !/^\|\s*-/.test(line))
    .map(line =>
      line
        .split(/(?<!\\)\|/)
        .slice(1, -1)
        .map(cell =>
          cell
            .trim()
            .replace(/^`([\s\S]*)`$/, '$1')
            .replace(/<br>/g, '\n')
            .replace(/\\\|/g, '|')
        )
    )
}

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap(entry => {
    const relative = path.join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(relative)
    return entry.name.endsWith('.ts') ? [relative] : []
  })
}

describe('action.yml', () => {
  it('has the name, description, author and branding the Marketplace shows', () => {
    for (const field of [action.name, action.description, action.author]) {
      expect(typeof field).toBe('string')
      expect((field as string).trim()).not.toBe('')
    }
    // Publishing to the Marketplace fails with "Description must be less than 125 characters".
    expect((action.description as string).length).toBeLessThan(125)
    expect(MARKETPLACE_ICONS).toContain(action.branding?.icon)
    expect(MARKETPLACE_COLORS).toContain(action.branding?.color)
  })

  it('runs dist/index.js on Node 24', () => {
    expect(action.runs).toEqual({ using: 'node24', main: 'dist/index.js' })
    expect(() => readFileSync(path.join(root, 'dist/index.js'))).not.toThrow()
  })

  it('describes every input and every output', () => {
    const undescribed = [
      ...Object.entries(action.inputs).map(([name, input]) => ['input', name, input?.description] as const),
      ...Object.entries(action.outputs).map(
        ([name, output]) => ['output', name, output?.description] as const
      )
    ]
      .filter(([, , description]) => typeof description !== 'string' || description.trim() === '')
      .map(([kind, name]) => `${kind} ${name}`)
    expect(undescribed).toEqual([])
  })

  it('requires no input, so a bare `uses:` validates and plans with the defaults', () => {
    expect(Object.entries(action.inputs).filter(([, input]) => input.required === true)).toEqual([])
  })
})

describe('inputs: action.yml, the README table and the registry in src/config/ agree', () => {
  const fromConfig = Object.fromEntries(INPUTS.map(input => [input.name, input.default]))

  it('action.yml declares the inputs of INPUTS, with the same defaults', () => {
    const fromActionYml = Object.fromEntries(
      Object.entries(action.inputs).map(([name, input]) => [name, normalDefault(input.default)])
    )
    expect(fromActionYml).toEqual(fromConfig)
  })

  it('the README inputs table lists the inputs of INPUTS, with the same defaults', () => {
    const rows = readmeTable('inputs')
    const fromReadme = Object.fromEntries(
      rows.map(([name, defaultValue]) => [name, defaultValue || undefined])
    )
    expect(rows).toHaveLength(INPUTS.length) // no input listed twice
    expect(fromReadme).toEqual(fromConfig)
  })

  it('the README outputs table and action.yml list the outputs of OUTPUTS', () => {
    const names = OUTPUTS.map(output => output.name).sort()
    expect(Object.keys(action.outputs).sort()).toEqual(names)
    expect(
      readmeTable('outputs')
        .map(([name]) => name)
        .sort()
    ).toEqual(names)
  })

  it('the descriptions are the ones in src/config/', () => {
    for (const input of INPUTS) expect(action.inputs[input.name]?.description).toBe(describeInput(input))
    for (const output of OUTPUTS) expect(action.outputs[output.name]?.description).toBe(output.description)
  })
})

describe('the code and the declared inputs and outputs', () => {
  it('reads from the runner only inputs that action.yml declares', () => {
    const declared = new Set(
      Object.keys(action.inputs).map(name => `INPUT_${name.replace(/ /g, '_').toUpperCase()}`)
    )
    const asked = new Set<string>()
    const env = process.env
    process.env = new Proxy(env, {
      get(target, key, receiver) {
        if (typeof key === 'string' && key.startsWith('INPUT_')) asked.add(key)
        return Reflect.get(target, key, receiver)
      }
    })
    try {
      readActionInputs()
    } finally {
      process.env = env
    }
    expect(asked.size).toBe(INPUTS.length)
    expect([...asked].filter(variable => !declared.has(variable))).toEqual([])
  })

  it('reads inputs in one place, so the check above sees every one', () => {
    const readers: string[] = []
    // getInput itself (src/github/core.ts: @actions/core's, written out to keep its OIDC client out).
    const getInput = path.join('src', 'github', 'core.ts')
    expect(read(getInput)).toMatch(/export function getInput\(/)
    for (const file of sourceFiles('src')) {
      if (file === getInput) continue
      const text = read(file)
      if (/\bget(Boolean|Multiline)?Input\(/.test(text)) readers.push(file)
      // An input read straight from the environment would bypass INPUTS.
      expect(text).not.toMatch(/process\.env(\.|\[\s*['"`])INPUT_/)
    }
    expect(readers).toEqual([path.join('src', 'github', 'inputs.ts')])
  })

  it('parses only settings that are declared inputs', () => {
    const declared = new Set(INPUTS.map(input => input.name))
    const used = new Set<string>()
    const config = read('src/config/parse.ts')
    for (const m of config.matchAll(/\b(?:get|bool|oneOf|number|fail)\(\s*'([^']+)'/g)) used.add(m[1])
    for (const file of sourceFiles('src')) {
      for (const m of read(file).matchAll(/\braw\[\s*'([^']+)'\s*\]/g)) used.add(m[1])
    }
    expect(used.size).toBeGreaterThan(10)
    expect([...used].filter(name => !declared.has(name))).toEqual([])
  })

  it('sets exactly the outputs that action.yml declares', () => {
    const set = new Set<string>()
    for (const file of sourceFiles('src')) {
      for (const m of read(file).matchAll(/\bsetOutput\(\s*'([^']+)'/g)) set.add(m[1])
    }
    expect([...set].sort()).toEqual(Object.keys(action.outputs).sort())
  })
})
