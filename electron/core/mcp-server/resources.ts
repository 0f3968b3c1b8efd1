import { readFileSync } from 'node:fs'
import { ResourceNotFoundError, ResourceTemplate, type McpServer } from '@modelcontextprotocol/server'
import type { ServedHome } from './served-home'

export const MEMORY_SNAPSHOT_URI = 'memory://snapshot'
const SKILL_URI_PREFIX = 'skill://'

/** The memory blocks a new Cairn conversation's system prompt would freeze now (threat-matching entries shown as placeholders). */
export function memorySnapshotText(core: Pick<ServedHome, 'memory' | 'config'>): string {
  const snapshot = core.memory.loadSnapshot()
  const { memory } = core.config.get()
  const blocks = [memory.enabled ? snapshot.memory : null, memory.userProfileEnabled ? snapshot.user : null].filter((block): block is string => Boolean(block))
  return blocks.length ? blocks.join('\n\n') + '\n' : '(Memory is empty so far.)\n'
}

/** Every skill the user has not disabled as `skill://<name>` (its SKILL.md), and the memory snapshot. */
export function registerResources(server: McpServer, core: ServedHome): void {
  const visibleSkills = () => {
    const disabled = core.skillFlags.disabled()
    return core.skills.list().filter((skill) => !disabled.has(skill.name))
  }
  server.registerResource(
    'skill',
    new ResourceTemplate(`${SKILL_URI_PREFIX}{name}`, {
      list: () => ({
        resources: visibleSkills().map((skill) => ({
          uri: `${SKILL_URI_PREFIX}${skill.name}`,
          name: skill.name,
          title: skill.category ? `${skill.category}/${skill.name}` : skill.name,
          description: skill.description,
          mimeType: 'text/markdown'
        }))
      })
    }),
    { description: "A skill from the user's Cairn library: its SKILL.md.", mimeType: 'text/markdown' },
    (uri, variables) => {
      const name = decodeURIComponent(String(variables.name))
      const skill = visibleSkills().find((candidate) => candidate.name === name)
      if (!skill) throw new ResourceNotFoundError(uri.href, `There is no skill '${name}' in Cairn (skills_list lists them).`)
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: readFileSync(skill.path, 'utf8') }] }
    }
  )
  server.registerResource(
    'memory-snapshot',
    MEMORY_SNAPSHOT_URI,
    {
      title: 'Cairn memory',
      description: "What Cairn remembers about the user and their environment, as a new Cairn conversation's system prompt shows it.",
      mimeType: 'text/markdown'
    },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/markdown', text: memorySnapshotText(core) }] })
  )
}
