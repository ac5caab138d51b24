/** A CPU profile of one in-process call, reduced to the functions with the most self time. */
import { Session } from 'node:inspector/promises'

interface Node {
  id: number
  callFrame: { functionName: string; url: string }
}

export async function topSelfTime(
  fn: () => unknown,
  count = 5
): Promise<{ name: string; ms: number; share: number }[]> {
  const session = new Session()
  session.connect()
  try {
    await session.post('Profiler.enable')
    await session.post('Profiler.setSamplingInterval', { interval: 200 })
    await session.post('Profiler.start')
    await fn()
    const { profile } = (await session.post('Profiler.stop')) as unknown as {
      profile: { nodes: Node[]; samples: number[]; timeDeltas: number[] }
    }
    const byId = new Map(profile.nodes.map(n => [n.id, n]))
    const self = new Map<string, number>()
    let total = 0
    profile.samples.forEach((id, i) => {
      const cf = byId.get(id)!.callFrame
      const us = profile.timeDeltas[i] ?? 0
      // Not the code under test: idle time, and the inspector's own work of starting and stopping.
      if (
        ['(idle)', '(program)', 'dispatch'].includes(cf.functionName) ||
        cf.url.startsWith('node:inspector')
      )
        return
      total += us
      const file = cf.url.replace(/^.*\/(src|node_modules)\//, '$1/')
      const name = `${cf.functionName || '(anonymous)'} ${file}`.trim()
      self.set(name, (self.get(name) ?? 0) + us)
    })
    return [...self]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, us]) => ({ name, ms: us / 1000, share: us / total }))
  } finally {
    session.disconnect()
  }
}
