/**
 * The run's GitHub context, read from the runner's environment and event file. Read directly rather
 * than through @actions/github, which loads Octokit: a validate run should start fast.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import type { EventContext } from './events.js'

export interface RunnerContext {
  event?: EventContext
  repository?: { owner: string; repo: string }
  /** The pull request or issue number, when the event has one. */
  issueNumber?: number
  /** `workflow/job`: one sticky comment per stack and job. */
  job: string
  workspace: string
  tempDir?: string
  /** What triggered the run, in words. */
  trigger?: string
  /** Where the run is on GitHub, for links: the commit under review and the workflow run. */
  links?: RunLinks
}

export interface RunLinks {
  serverUrl: string
  repository: string
  /** A pull request's head commit (GITHUB_SHA is the merge commit there), else GITHUB_SHA. */
  sha?: string
  runId?: string
  runAttempt?: string
}

export function readRunnerContext(env: NodeJS.ProcessEnv = process.env): RunnerContext {
  const eventName = env.GITHUB_EVENT_NAME
  let payload: Record<string, unknown> = {}
  if (env.GITHUB_EVENT_PATH) {
    try {
      payload = JSON.parse(readFileSync(env.GITHUB_EVENT_PATH, 'utf8')) as Record<string, unknown>
    } catch {
      payload = {}
    }
  }
  const [owner, repo] = (env.GITHUB_REPOSITORY ?? '').split('/')
  const pr = payload.pull_request as { number?: unknown; head?: { sha?: unknown } } | undefined
  const issue = payload.issue as { number?: unknown } | undefined
  const number =
    typeof pr?.number === 'number' ? pr.number : typeof issue?.number === 'number' ? issue.number : undefined
  const event = eventName ? { eventName, ref: env.GITHUB_REF, payload } : undefined
  return {
    event,
    repository: owner && repo ? { owner, repo } : undefined,
    issueNumber: number,
    job: `${env.GITHUB_WORKFLOW ?? 'workflow'}/${env.GITHUB_JOB ?? 'job'}`,
    workspace: env.GITHUB_WORKSPACE ?? process.cwd(),
    tempDir: env.RUNNER_TEMP,
    trigger: event ? describeTrigger(event, number) : undefined,
    links: env.GITHUB_REPOSITORY
      ? {
          serverUrl: env.GITHUB_SERVER_URL ?? 'https://github.com',
          repository: env.GITHUB_REPOSITORY,
          sha: typeof pr?.head?.sha === 'string' ? pr.head.sha : env.GITHUB_SHA,
          runId: env.GITHUB_RUN_ID,
          runAttempt: env.GITHUB_RUN_ATTEMPT
        }
      : undefined
  }
}

function describeTrigger(e: EventContext, number: number | undefined): string {
  if (number !== undefined) return `${e.eventName} #${number}`
  const release = e.payload.release as { tag_name?: unknown } | undefined
  if (e.eventName === 'release')
    return `release ${String(release?.tag_name ?? '')} ${String(e.payload.action ?? '')}`
      .replace(/\s+/g, ' ')
      .trim()
  if (e.eventName === 'push' && e.ref) return `push to ${e.ref.replace(/^refs\/(heads|tags)\//, '')}`
  return e.eventName
}

export function defaultPlanPath(ctx: RunnerContext): string {
  const safeJob = ctx.job.replace(/[^A-Za-z0-9._-]+/g, '-')
  return ctx.tempDir
    ? path.join(ctx.tempDir, `obsdeploy-plan-${safeJob}.json`)
    : path.join(ctx.workspace, '.obsdeploy', 'plan.json')
}
