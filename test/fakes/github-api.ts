/**
 * A loopback stand-in for the GitHub REST routes of the sticky comment: list an issue's comments
 * (paged, with a Link header), create one, edit one; who the token is (`GET /user`, which answers 403 to
 * an installation token as GitHub does, and GraphQL's `viewer`); of pull request labels: list, add (creating a
 * label the repository does not have, as GitHub does), remove one; of a pull request's files (paged,
 * at most 3,000, as GitHub lists them); a pull request's state; the pull requests of a commit (with their labels); a commit's
 * files, as git trees and blobs (REST and GraphQL); and pull requests themselves (list with GitHub's `state` and
 * `head` filters, create, get, update), as the sync opens, updates and closes them. Unit tests call it through Octokit; e2e tests point
 * the built action at it with GITHUB_API_URL. Responses have GitHub's shape and status codes, including
 * the 403 a read-only token (a fork's pull request) gets on writes.
 */
import { createHash } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export interface FakeComment {
  id: number
  node_id: string
  url: string
  html_url: string
  issue_url: string
  body: string
  user: { login: string; id: number; type: 'Bot' | 'User' }
  author_association: string
  created_at: string
  updated_at: string
}

/** A file of a pull request, as GitHub lists it (the fields obsdeploy reads, and a few more). */
export interface FakePullFile {
  filename: string
  status?: 'added' | 'removed' | 'modified' | 'renamed' | 'copied' | 'changed' | 'unchanged'
  previous_filename?: string
}

/** A pull request the fake holds (opened through POST /repos/o/r/pulls, or by `openPull`). */
export interface FakePull {
  number: number
  state: 'open' | 'closed'
  merged: boolean
  title: string
  body: string | null
  /** The branch, in this repository. */
  head: string
  base: string
  owner: string
  repo: string
}

export interface FakeRequest {
  method: string
  path: string
  query: Record<string, string>
  status: number
}

export interface FakeGitHubOptions {
  /** 'read' answers every write with 403, as GitHub does for a fork's pull request. Default 'write'. */
  permissions?: 'write' | 'read'
  /** The largest page the server hands out, whatever per_page asks (GitHub's is 100). */
  perPageMax?: number
  /** When set, only this token is accepted (401 Bad credentials otherwise); by default any token is. */
  token?: string
  /**
   * Who the token is, and so who the comments it writes are by. Default: the workflow's GITHUB_TOKEN,
   * `github-actions[bot]`. A Bot is an installation token: `GET /user` answers it 403.
   */
  identity?: { login: string; type: 'Bot' | 'User' }
  /** false: the GraphQL endpoint answers 404 (as if it were unreachable). Default true. */
  graphql?: boolean
}

export interface FakeGitHub {
  /** Base URL to use as GITHUB_API_URL, e.g. http://127.0.0.1:41234 (no trailing slash). */
  url: string
  /** The comments of an issue, oldest first (a copy). */
  comments(issueNumber: number): FakeComment[]
  /** Adds n comments by other users, e.g. to push a comment past the first page. */
  seedComments(issueNumber: number, n: number): void
  /** Adds one comment, by default as a human user. */
  addComment(issueNumber: number, body: string, user?: { login: string; type: 'Bot' | 'User' }): FakeComment
  /** The labels on an issue, in the order they were added. */
  labels(issueNumber: number): string[]
  /** The files a pull request changes (GET /repos/o/r/pulls/n/files); unset, that route answers 404. */
  setPullFiles(pullNumber: number, files: Array<string | FakePullFile>): void
  /**
   * The pull requests a commit belongs to (GET /repos/o/r/commits/sha/pulls), with their labels; `merged`
   * defaults to true. Unset, that route lists none, as GitHub does for a commit pushed straight to a branch.
   */
  setCommitPulls(sha: string, pulls: Array<{ number: number; labels: string[]; merged?: boolean }>): void
  /** A pull request's state (GET /repos/o/r/pulls/n); unset, that route answers 404 as for a number with none. */
  setPullState(pullNumber: number, state: 'open' | 'closed'): void
  /** Puts labels on an issue, as a person would (e.g. a stale one from an earlier run). */
  setLabels(issueNumber: number, names: string[]): void
  setPermissions(permissions: 'write' | 'read'): void
  /** The pull requests opened so far, by number (copies). */
  pulls(): FakePull[]
  /** Opens a pull request as a person would, e.g. one of the same branch made by hand. */
  openPull(pull: Pick<FakePull, 'head' | 'base' | 'title'> & Partial<FakePull>): FakePull
  /** Merges an open pull request: closed and merged, as the merge button leaves it. */
  mergePull(pullNumber: number): void
  /**
   * true: creating a pull request answers the 403 GitHub gives the workflow's token when the repository does
   * not allow GitHub Actions to create pull requests.
   */
  refusePullCreation(refuse: boolean): void
  /** The next `count` requests (any route) fail with this status and a GitHub-shaped body. */
  failNext(status: number, count?: number): void
  /**
   * A commit of a repository (`owner/repo`), by its sha and any branch or tag names (`refs`): its files,
   * served as git trees (GET .../git/trees/:ref?recursive=1), blobs (GET .../git/blobs/:sha) and GraphQL's
   * `object(oid:)` blobs, as GitHub serves them.
   */
  setCommit(repository: string, sha: string, files: Record<string, string>, refs?: string[]): void
  /** Every request received, in order (never its headers: they carry the token). */
  requests: FakeRequest[]
  close(): Promise<void>
}

const OWNER_REPO = '([^/]+)/([^/]+)'
const LIST_OR_CREATE = new RegExp(`^/repos/${OWNER_REPO}/issues/(\\d+)/comments$`)
const EDIT = new RegExp(`^/repos/${OWNER_REPO}/issues/comments/(\\d+)$`)
const LABELS = new RegExp(`^/repos/${OWNER_REPO}/issues/(\\d+)/labels$`)
const LABEL = new RegExp(`^/repos/${OWNER_REPO}/issues/(\\d+)/labels/([^/]+)$`)
const PULL_FILES = new RegExp(`^/repos/${OWNER_REPO}/pulls/(\\d+)/files$`)
const PULL = new RegExp(`^/repos/${OWNER_REPO}/pulls/(\\d+)$`)
const PULLS = new RegExp(`^/repos/${OWNER_REPO}/pulls$`)
const COMMIT_PULLS = new RegExp(`^/repos/${OWNER_REPO}/commits/([0-9a-f]{7,40})/pulls$`)
const TREE = new RegExp(`^/repos/${OWNER_REPO}/git/trees/(.+)$`)
const BLOB = new RegExp(`^/repos/${OWNER_REPO}/git/blobs/([0-9a-f]{40})$`)
const BOT = { login: 'github-actions[bot]', type: 'Bot' as const }

/** The git blob sha of a text, as GitHub's trees carry it. */
export const gitBlobSha = (text: string): string => {
  const bytes = Buffer.from(text, 'utf8')
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex')
}
const USERS_DOCS = 'https://docs.github.com/rest/users/users#get-the-authenticated-user'
const DOCS = 'https://docs.github.com/rest/issues/comments'
/** GitHub refuses longer comment bodies with 422. */
const BODY_LIMIT = 65536

export async function startFakeGitHub(options: FakeGitHubOptions = {}): Promise<FakeGitHub> {
  let permissions = options.permissions ?? 'write'
  const identity = options.identity ?? BOT
  const perPageMax = options.perPageMax ?? 100
  const byIssue = new Map<number, FakeComment[]>()
  const labelsByIssue = new Map<number, string[]>()
  const pullFiles = new Map<number, FakePullFile[]>()
  const commitPulls = new Map<string, Array<{ number: number; labels: string[]; merged?: boolean }>>()
  const pullStates = new Map<number, 'open' | 'closed'>()
  const pullsByNumber = new Map<number, FakePull>()
  let nextPull = 1
  let refuseCreation = false
  const openPull = (p: Pick<FakePull, 'head' | 'base' | 'title'> & Partial<FakePull>): FakePull => {
    const pull: FakePull = {
      owner: 'owner',
      repo: 'repo',
      state: 'open',
      merged: false,
      body: null,
      ...p,
      number: nextPull++
    }
    pullsByNumber.set(pull.number, pull)
    return pull
  }
  /** A pull request as GitHub's REST API returns it (the fields clients read, and a few more). */
  const pullJson = (p: FakePull) => ({
    url: `${base()}/repos/${p.owner}/${p.repo}/pulls/${p.number}`,
    html_url: `https://github.com/${p.owner}/${p.repo}/pull/${p.number}`,
    number: p.number,
    state: p.state,
    title: p.title,
    body: p.body,
    user: { login: identity.login, type: identity.type },
    merged: p.merged,
    merged_at: p.merged ? '2025-01-01T00:00:00Z' : null,
    closed_at: p.state === 'closed' ? '2025-01-01T00:00:00Z' : null,
    head: { ref: p.head, label: `${p.owner}:${p.head}`, repo: { full_name: `${p.owner}/${p.repo}` } },
    base: { ref: p.base, label: `${p.owner}:${p.base}`, repo: { full_name: `${p.owner}/${p.repo}` } }
  })
  const labelJson = (name: string) => ({
    id: 5000 + name.length,
    node_id: `LA_${Buffer.from(name).toString('base64')}`,
    url: `${base()}/repos/owner/repo/labels/${encodeURIComponent(name)}`,
    name,
    color: 'ededed',
    default: false,
    description: null
  })
  const requests: FakeRequest[] = []
  /** `owner/repo@ref` -> the commit's files; blobs by sha, shared across repositories as git shares them. */
  const commits = new Map<string, Record<string, string>>()
  const blobs = new Map<string, string>()
  const failures: number[] = []
  let nextId = 1000
  // A fake clock: one second per comment, so created_at orders comments the way ids do.
  let clock = Date.parse('2025-01-01T00:00:00Z')
  const now = (): string => {
    clock += 1000
    return new Date(clock).toISOString().replace(/\.\d{3}Z$/, 'Z')
  }

  const issueComments = (n: number): FakeComment[] => {
    let list = byIssue.get(n)
    if (!list) byIssue.set(n, (list = []))
    return list
  }

  const create = (
    owner: string,
    repo: string,
    issueNumber: number,
    body: string,
    user: { login: string; type: 'Bot' | 'User' }
  ): FakeComment => {
    const id = nextId++
    const at = now()
    const comment: FakeComment = {
      id,
      node_id: `IC_kwDO${Buffer.from(String(id)).toString('base64')}`,
      url: `${base()}/repos/${owner}/${repo}/issues/comments/${id}`,
      html_url: `https://github.com/${owner}/${repo}/pull/${issueNumber}#issuecomment-${id}`,
      issue_url: `${base()}/repos/${owner}/${repo}/issues/${issueNumber}`,
      body,
      user: { login: user.login, id: user.type === 'Bot' ? 41898282 : 1000 + (id % 97), type: user.type },
      author_association: user.type === 'Bot' ? 'NONE' : 'CONTRIBUTOR',
      created_at: at,
      updated_at: at
    }
    issueComments(issueNumber).push(comment)
    return comment
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const url = new URL(req.url ?? '/', base())
      const method = req.method ?? 'GET'
      const reply = (status: number, data: unknown, headers: Record<string, string> = {}): void => {
        requests.push({ method, path: url.pathname, query: Object.fromEntries(url.searchParams), status })
        res.writeHead(status, {
          'content-type': 'application/json; charset=utf-8',
          'x-github-request-id': `FAKE:${requests.length}`,
          'x-ratelimit-limit': '5000',
          'x-ratelimit-remaining': '4999',
          ...headers
        })
        res.end(status === 204 ? undefined : JSON.stringify(data))
      }
      const error = (status: number, message: string): void =>
        reply(status, { message, documentation_url: DOCS, status: String(status) })

      if (!/^(token|bearer) \S+$/i.test(req.headers.authorization ?? ''))
        return error(401, 'Requires authentication')
      if (options.token !== undefined && req.headers.authorization?.split(' ')[1] !== options.token) {
        return error(401, 'Bad credentials')
      }
      const fault = failures.shift()
      if (fault !== undefined)
        return error(fault, fault >= 500 ? 'Server Error' : 'Fault injected by the fake')

      if (url.pathname === '/user' && method === 'GET') {
        if (identity.type === 'Bot')
          return reply(403, {
            message: 'Resource not accessible by integration',
            documentation_url: USERS_DOCS,
            status: '403'
          })
        return reply(200, { login: identity.login, id: 1001, type: 'User' })
      }
      if (url.pathname === '/graphql' && method === 'POST') {
        if (options.graphql === false) return error(404, 'Not Found')
        const body = parseBody(Buffer.concat(chunks).toString('utf8')) as { query?: unknown } | undefined
        const query = typeof body?.query === 'string' ? body.query : ''
        // Blobs by id, under aliases (`b0: object(oid: "...") { ... on Blob { text isTruncated } }`).
        const objects = [...query.matchAll(/(\w+): object\(oid: "([0-9a-f]{40})"\)/g)]
        if (/\brepository\(/.test(query) && objects.length > 0) {
          const repository = Object.fromEntries(
            objects.map(([, alias, oid]) => {
              const text = blobs.get(oid!)
              return [alias, text === undefined ? null : { text, isTruncated: false }]
            })
          )
          return reply(200, { data: { repository } })
        }
        if (!/\bviewer\b/.test(query))
          return reply(200, { errors: [{ message: 'the fake answers only the viewer and blob queries' }] })
        return reply(200, { data: { viewer: { login: identity.login } } })
      }
      const labels = LABELS.exec(url.pathname)
      const label = LABEL.exec(url.pathname)
      if (labels || label) {
        const n = Number((labels ?? label)![3])
        const current = labelsByIssue.get(n) ?? []
        if (method === 'GET' && labels) return reply(200, current.map(labelJson))
        if (permissions === 'read') return error(403, 'Resource not accessible by integration')
        if (method === 'POST' && labels) {
          const body = parseBody(Buffer.concat(chunks).toString('utf8')) as { labels?: unknown } | undefined
          if (!body || !Array.isArray(body.labels)) return error(422, 'Validation Failed')
          const next = [...current, ...body.labels.map(String).filter(l => !current.includes(l))]
          labelsByIssue.set(n, next)
          return reply(200, next.map(labelJson))
        }
        if (method === 'DELETE' && label) {
          const name = decodeURIComponent(label[4]!)
          if (!current.includes(name)) return error(404, 'Label does not exist')
          const next = current.filter(l => l !== name)
          labelsByIssue.set(n, next)
          return reply(200, next.map(labelJson))
        }
        return error(404, 'Not Found')
      }
      const tree = TREE.exec(url.pathname)
      if (tree && method === 'GET') {
        const [, owner, repo, ref] = tree
        const files = commits.get(`${owner}/${repo}@${decodeURIComponent(ref!)}`)
        if (!files) return error(404, 'Not Found')
        const folders = new Set<string>()
        for (const file of Object.keys(files))
          for (let at = file.indexOf('/'); at > 0; at = file.indexOf('/', at + 1))
            folders.add(file.slice(0, at))
        const recursive = url.searchParams.has('recursive')
        const entries = [
          ...[...folders].map(p => ({ path: p, mode: '040000', type: 'tree', sha: gitBlobSha(`tree ${p}`) })),
          ...Object.entries(files).map(([p, text]) => ({
            path: p,
            mode: '100644',
            type: 'blob',
            sha: gitBlobSha(text),
            size: Buffer.byteLength(text),
            url: `${base()}/repos/${owner}/${repo}/git/blobs/${gitBlobSha(text)}`
          }))
        ]
          .filter(e => recursive || !e.path.includes('/'))
          .sort((a, b) => a.path.localeCompare(b.path))
        return reply(200, {
          sha: gitBlobSha(`tree ${ref}`),
          url: url.toString(),
          tree: entries,
          truncated: false
        })
      }
      const blob = BLOB.exec(url.pathname)
      if (blob && method === 'GET') {
        const text = blobs.get(blob[3]!)
        if (text === undefined) return error(404, 'Not Found')
        return reply(200, {
          sha: blob[3],
          node_id: `B_${blob[3]}`,
          size: Buffer.byteLength(text),
          url: url.toString(),
          content: Buffer.from(text)
            .toString('base64')
            .replace(/(.{60})/g, '$1\n'),
          encoding: 'base64'
        })
      }
      /** One page of a list, as GitHub pages it (per_page at most perPageMax, a Link header). */
      const paged = (all: readonly unknown[]): void => {
        const perPage = Math.min(
          perPageMax,
          Math.max(1, Number(url.searchParams.get('per_page') ?? 30) || 30)
        )
        const page = Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1)
        const last = Math.max(1, Math.ceil(all.length / perPage))
        const link = linkHeader(url, page, last, perPage)
        return reply(200, all.slice((page - 1) * perPage, page * perPage), link ? { link } : {})
      }
      const files = PULL_FILES.exec(url.pathname)
      if (files && method === 'GET') {
        const listed = pullFiles.get(Number(files[3]))
        if (!listed) return error(404, 'Not Found')
        // GitHub lists at most 3,000 files of a pull request, and says nothing about the rest.
        return paged(listed.slice(0, 3000))
      }
      const pulls = PULLS.exec(url.pathname)
      if (pulls && method === 'GET') {
        const [, owner, repo] = pulls
        // GitHub's filters: state (open by default, or closed, or all) and head as `owner:branch`.
        const state = url.searchParams.get('state') ?? 'open'
        const head = url.searchParams.get('head')
        const base = url.searchParams.get('base')
        return paged(
          [...pullsByNumber.values()]
            .filter(p => p.owner === owner && p.repo === repo)
            .filter(p => state === 'all' || p.state === state)
            .filter(p => head === null || `${p.owner}:${p.head}` === head)
            .filter(p => base === null || p.base === base)
            .sort((a, b) => b.number - a.number)
            .map(pullJson)
        )
      }
      if (pulls && method === 'POST') {
        const [, owner, repo] = pulls
        if (permissions === 'read') return error(403, 'Resource not accessible by integration')
        if (refuseCreation)
          return error(403, 'GitHub Actions is not permitted to create or approve pull requests.')
        const body = parseBody(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> | undefined
        if (!body) return error(400, 'Problems parsing JSON')
        const { head, base, title } = body
        if (typeof head !== 'string' || typeof base !== 'string' || typeof title !== 'string')
          return error(422, 'Validation Failed')
        // `head` is `branch` or `owner:branch`; the fake holds one repository's branches.
        const branch = head.includes(':') ? head.slice(head.indexOf(':') + 1) : head
        const twin = [...pullsByNumber.values()].find(
          p =>
            p.owner === owner && p.repo === repo && p.state === 'open' && p.head === branch && p.base === base
        )
        if (twin)
          return reply(422, {
            message: 'Validation Failed',
            errors: [
              {
                resource: 'PullRequest',
                code: 'custom',
                message: `A pull request already exists for ${owner}:${branch}.`
              }
            ],
            documentation_url: 'https://docs.github.com/rest/pulls/pulls#create-a-pull-request',
            status: '422'
          })
        const made = openPull({
          owner: owner!,
          repo: repo!,
          head: branch,
          base,
          title,
          body: typeof body.body === 'string' ? body.body : null
        })
        return reply(201, pullJson(made))
      }
      const pull = PULL.exec(url.pathname)
      const held = pull ? pullsByNumber.get(Number(pull[3])) : undefined
      if (pull && held && method === 'GET') return reply(200, pullJson(held))
      if (pull && method === 'PATCH') {
        if (!held) return error(404, 'Not Found')
        if (permissions === 'read') return error(403, 'Resource not accessible by integration')
        const body = parseBody(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> | undefined
        if (!body) return error(400, 'Problems parsing JSON')
        if (typeof body.title === 'string') held.title = body.title
        if (typeof body.body === 'string') held.body = body.body
        if (typeof body.base === 'string') held.base = body.base
        if (body.state === 'open' || body.state === 'closed') {
          if (held.merged) return error(422, 'Validation Failed')
          held.state = body.state
        }
        return reply(200, pullJson(held))
      }
      if (pull && method === 'GET') {
        const [, owner, repo, number] = pull
        const state = pullStates.get(Number(number))
        if (!state) return error(404, 'Not Found')
        return reply(200, {
          url: `${base()}/repos/${owner}/${repo}/pulls/${number}`,
          number: Number(number),
          state,
          title: `Pull request ${number}`,
          merged_at: null,
          closed_at: state === 'closed' ? '2025-01-01T00:00:00Z' : null
        })
      }
      const pullsOf = COMMIT_PULLS.exec(url.pathname)
      if (pullsOf && method === 'GET') {
        const [, owner, repo, sha] = pullsOf
        // GitHub's "list pull requests associated with a commit": open ones too, merged_at null on those.
        return paged(
          (commitPulls.get(sha!) ?? []).map(p => ({
            url: `${base()}/repos/${owner}/${repo}/pulls/${p.number}`,
            number: p.number,
            state: p.merged === false ? 'open' : 'closed',
            title: `Pull request ${p.number}`,
            labels: p.labels.map(labelJson),
            merged_at: p.merged === false ? null : '2025-01-01T00:00:00Z',
            merge_commit_sha: p.merged === false ? null : sha,
            base: { ref: 'main' },
            head: { ref: `topic-${p.number}` }
          }))
        )
      }
      const list = LIST_OR_CREATE.exec(url.pathname)
      const edit = EDIT.exec(url.pathname)
      if (list && method === 'GET') return paged(issueComments(Number(list[3])))
      if ((list && method === 'POST') || (edit && method === 'PATCH')) {
        if (permissions === 'read') return error(403, 'Resource not accessible by integration')
        const body = parseBody(Buffer.concat(chunks).toString('utf8'))
        if (body === undefined) return error(400, 'Problems parsing JSON')
        if (typeof body.body !== 'string') return error(422, 'Validation Failed')
        if (body.body.length > BODY_LIMIT) return error(422, 'Body is too long (maximum is 65536 characters)')
        if (list) return reply(201, create(list[1], list[2], Number(list[3]), body.body, identity))
        const comment = [...byIssue.values()].flat().find(c => c.id === Number(edit![3]))
        if (!comment) return error(404, 'Not Found')
        comment.body = body.body
        comment.updated_at = now()
        return reply(200, comment)
      }
      return error(404, 'Not Found')
    })
  })

  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const base = (): string => `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  return {
    url: base(),
    comments: n => issueComments(n).map(c => ({ ...c, user: { ...c.user } })),
    seedComments(issueNumber, n) {
      for (let i = 0; i < n; i++) {
        create('owner', 'repo', issueNumber, `Looks good to me (${i + 1})`, {
          login: `reviewer-${i % 5}`,
          type: 'User'
        })
      }
    },
    addComment: (issueNumber, body, user = { login: 'octocat', type: 'User' }) =>
      create('owner', 'repo', issueNumber, body, user),
    labels: n => [...(labelsByIssue.get(n) ?? [])],
    setPullState(pullNumber, state) {
      pullStates.set(pullNumber, state)
    },
    setCommitPulls(sha, pulls) {
      commitPulls.set(sha, pulls)
    },
    setLabels(n, names) {
      labelsByIssue.set(n, [...names])
    },
    setPullFiles(n, files) {
      pullFiles.set(
        n,
        files.map((f, i) => ({
          sha: `${i}`.padStart(40, '0'),
          status: 'modified',
          additions: 1,
          deletions: 0,
          changes: 1,
          ...(typeof f === 'string' ? { filename: f } : f)
        }))
      )
    },
    setPermissions(p) {
      permissions = p
    },
    pulls: () => [...pullsByNumber.values()].map(p => ({ ...p })),
    openPull,
    mergePull(n) {
      const pull = pullsByNumber.get(n)
      if (!pull || pull.state !== 'open') throw new Error(`the fake has no open pull request ${n}`)
      pull.state = 'closed'
      pull.merged = true
    },
    refusePullCreation(refuse) {
      refuseCreation = refuse
    },
    setCommit(repository, sha, files, refs = []) {
      for (const name of [sha, ...refs]) commits.set(`${repository}@${name}`, { ...files })
      for (const text of Object.values(files)) blobs.set(gitBlobSha(text), text)
    },
    failNext(status, count = 1) {
      for (let i = 0; i < count; i++) failures.push(status)
    },
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections()
        server.close(err => (err ? reject(err) : resolve()))
      })
  }
}

/** GitHub's Link header: present only when there is more than one page. */
function linkHeader(url: URL, page: number, last: number, perPage: number): string | undefined {
  if (last <= 1) return undefined
  const to = (p: number): string => {
    const target = new URL(url)
    target.searchParams.set('per_page', String(perPage))
    target.searchParams.set('page', String(p))
    return `<${target.toString()}>`
  }
  const links: string[] = []
  if (page > 1) links.push(`${to(page - 1)}; rel="prev"`)
  if (page < last) links.push(`${to(page + 1)}; rel="next"`, `${to(last)}; rel="last"`)
  if (page > 1) links.push(`${to(1)}; rel="first"`)
  return links.join(', ')
}

function parseBody(text: string): { body?: unknown } | undefined {
  try {
    const parsed: unknown = JSON.parse(text || '{}')
    return parsed !== null && typeof parsed === 'object' ? (parsed as { body?: unknown }) : undefined
  } catch {
    return undefined
  }
}
