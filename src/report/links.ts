/**
 * Links a report may hold, all built by us from configured bases and checked parts: a manifest line at
 * the commit under review, the commit, the workflow run, and a resource in the web UI. An id or a path
 * that could change where a link points gives no link at all.
 */
import type { ReportInput } from './input.js'

/** Ids come from the server: only plain ones go into a URL, so an id cannot change where the link points. */
const PLAIN_ID = /^(?!\.+$)[A-Za-z0-9._~-]{1,100}$/
const SHA = /^[0-9a-f]{7,64}$/i
const REPOSITORY = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/

function githubBase(input: ReportInput): string | undefined {
  const gh = input.github
  if (!gh || !/^https?:\/\/[^/\s]+\/?$/i.test(gh.serverUrl) || !REPOSITORY.test(gh.repository))
    return undefined
  return `${gh.serverUrl.replace(/\/+$/, '')}/${gh.repository}`
}

/** The commit under review: short SHA and its page. */
export function commitLink(input: ReportInput): { text: string; url: string } | undefined {
  const base = githubBase(input)
  const sha = input.github?.sha
  if (!base || !sha || !SHA.test(sha)) return undefined
  return { text: sha.slice(0, 7), url: `${base}/commit/${sha}` }
}

/** The workflow run (and its attempt, after a re-run). */
export function runLink(input: ReportInput): { text: string; url: string } | undefined {
  const base = githubBase(input)
  const id = input.github?.runId
  if (!base || !id || !/^\d{1,20}$/.test(id)) return undefined
  const attempt = input.github?.runAttempt
  const again = attempt && /^\d{1,5}$/.test(attempt) && attempt !== '1' ? attempt : undefined
  return {
    text: again ? `workflow run ${id} (attempt ${again})` : `workflow run ${id}`,
    url: `${base}/actions/runs/${id}${again ? `/attempts/${again}` : ''}`
  }
}

/** A manifest line at the commit under review; only for a plain relative path inside the repository. */
export function fileLink(input: ReportInput, file: string, line?: number): string | undefined {
  const base = githubBase(input)
  const sha = input.github?.sha
  if (!base || !sha || !SHA.test(sha)) return undefined
  const parts = file.split('/')
  if (file.startsWith('/') || parts.some(p => p === '' || p === '.' || p === '..')) return undefined
  const path = parts.map(encodeURIComponent).join('/')
  return `${base}/blob/${sha}/${path}${line ? `#L${line}` : ''}`
}

/** A dashboard's page in the web UI, when a UI URL is configured. */
export function dashboardLink(uiUrl: string | undefined, id: string | undefined): string | undefined {
  if (!uiUrl || !/^https?:\/\//i.test(uiUrl) || !id || !PLAIN_ID.test(id)) return undefined
  return `${uiUrl.replace(/\/+$/, '')}/dashboards/${id}`
}
