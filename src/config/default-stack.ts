/**
 * The CLI's default stack: the repository's name, as the action uses it, so a plan from a laptop and one
 * from CI own the same resources. From GITHUB_REPOSITORY, or the git remote "origin" of the working
 * directory (or a folder above it); failing both, the folder's name, which is said (`why`), because the
 * stack is the ownership tag of all the run creates, and a folder name is easily another one next time.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'

export interface DefaultStack {
  name: string
  /** Set when the name is only the folder's: why, in words for a notice. */
  why?: string
}

export function defaultStackOf(cwd: string, env: NodeJS.ProcessEnv): DefaultStack {
  const fromEnv = env.GITHUB_REPOSITORY?.split('/')[1]
  if (fromEnv) return { name: fromEnv }
  let git = 'no git repository'
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    try {
      const config = readFileSync(path.join(dir, '.git', 'config'), 'utf8')
      const origin = /\[remote "origin"\][^[]*?\burl\s*=\s*(\S+)/.exec(config)?.[1]
      const name = origin
        ?.replace(/\.git$/, '')
        .split(/[/:]/)
        .pop()
      if (name) return { name }
      git = `the git repository in ${dir} has no remote "origin"`
      break
    } catch {
      if (path.dirname(dir) === dir) break
    }
  }
  const name = path.basename(cwd) || 'default'
  return {
    name,
    why: `stack "${name}" is the name of this folder: ${git} to name the repository, and GITHUB_REPOSITORY is not set. The stack is the ownership tag of everything this run creates and updates; pass --stack NAME (or OBSDEPLOY_STACK) to choose it`
  }
}
