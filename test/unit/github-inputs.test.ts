/**
 * The action's input layer masks every secret before anything can print it. src/github/core.ts (the
 * action's @actions/core) is mocked the ESM way (unstable_mockModule before a dynamic import), so the test
 * sees each setSecret call of src/, not of the committed bundle.
 */
import { beforeEach, describe, expect, it, jest } from '@jest/globals'

let given: Record<string, string> = {}
const getInput = jest.fn((name: string) => given[name] ?? '')
const setSecret = jest.fn((_secret: string) => undefined)
jest.unstable_mockModule('../../src/github/core.js', () => ({ getInput, setSecret }))

const { readActionInputs } = await import('../../src/github/inputs.js')

const API_KEY = 'hdx-personal-key-0123456789'
const KEY_ID = 'kid-4f1e'
const KEY_SECRET = 's3cr3t-Value/with+chars='
const TOKEN = 'ghs_0123456789abcdefghijklmnopqrstuvwx'

beforeEach(() => {
  given = {}
  getInput.mockClear()
  setSecret.mockClear()
})

const masked = () => setSecret.mock.calls.map(([s]) => s)

describe('readActionInputs', () => {
  it('masks the API key and the GitHub token, and nothing else', () => {
    given = {
      command: 'plan',
      'api-url': 'https://hdx.example.com',
      'api-key': API_KEY,
      'github-token': TOKEN
    }
    const raw = readActionInputs()
    expect(masked().sort()).toEqual([API_KEY, TOKEN].sort())
    expect(raw).toMatchObject({ command: 'plan', 'api-url': 'https://hdx.example.com', 'api-key': API_KEY })
  })

  it('masks the managed key id, its secret, and the Basic credential made of both', () => {
    given = { mode: 'managed', 'key-id': KEY_ID, 'key-secret': KEY_SECRET, 'organization-id': 'org-1' }
    readActionInputs()
    const basic = Buffer.from(`${KEY_ID}:${KEY_SECRET}`).toString('base64')
    expect(masked().sort()).toEqual([KEY_ID, KEY_SECRET, basic].sort())
  })

  it('masks only the secrets that are set', () => {
    given = { 'key-secret': KEY_SECRET }
    readActionInputs()
    // An empty input is not a secret: masking '' would hide nothing (and the runner rejects it).
    expect(masked()).toEqual([KEY_SECRET])
    expect(setSecret).not.toHaveBeenCalledWith('')
  })

  it('reads every input the action declares, empty ones as empty strings', () => {
    const raw = readActionInputs()
    const names = getInput.mock.calls.map(([name]) => name)
    expect(names).toEqual(
      expect.arrayContaining(['api-key', 'key-id', 'key-secret', 'github-token', 'prune'])
    )
    expect(Object.keys(raw)).toEqual(names)
    expect(Object.values(raw).every(v => v === '')).toBe(true)
    expect(setSecret).not.toHaveBeenCalled()
  })
})
