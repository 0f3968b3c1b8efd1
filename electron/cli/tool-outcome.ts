import { ellipsize } from '../core/text/cut'

/** A tool result's JSON object; {} when it is not one (plain text, cut short). */
function fields(result: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(result)
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

const count = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined)
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

/**
 * What a finished tool call came to, in a few English words for the line after its name (the app's
 * tool rows say the same): a command's exit code, how many lines were read or entries listed, a fetched
 * page's title; a failure's own message rather than its JSON. '' when there is nothing short to say.
 */
export function toolOutcome(name: string, ok: boolean, result: string): string {
  const parsed = fields(result)
  if (!ok && (typeof parsed.error === 'string' || name !== 'run_command')) return ellipsize(typeof parsed.error === 'string' ? parsed.error : result, 120)
  switch (name) {
    case 'run_command': {
      // A command that ran and failed says how it ended; its output follows (command-output.ts).
      if (parsed.timed_out === true) return 'timed out'
      if (typeof parsed.signal === 'string') return `stopped by ${parsed.signal}`
      const exit = count(parsed.exit_code)
      if (exit === undefined) return ok ? '' : ellipsize(result, 120)
      return `exit ${exit}`
    }
    case 'read_file': {
      const lines = count(parsed.total_lines)
      return lines === undefined ? '' : plural(lines, 'line', 'lines')
    }
    case 'list_dir': {
      const entries = count(parsed.count)
      return entries === undefined ? '' : plural(entries, 'entry', 'entries')
    }
    case 'search_files': {
      const found = count(parsed.count)
      const files = count(parsed.files_with_matches)
      if (found === undefined) return ''
      return files === undefined ? plural(found, 'file', 'files') : `${plural(found, 'match', 'matches')} in ${plural(files, 'file', 'files')}`
    }
    case 'fetch_url':
      return typeof parsed.title === 'string' ? ellipsize(parsed.title, 80) : ''
    case 'memory':
    case 'skill_manage': {
      // Held back by the learning policy: it waits for the user, who should know where to find it.
      const ids = Array.isArray(parsed.proposal_ids) ? parsed.proposal_ids.filter((id): id is number => typeof id === 'number') : []
      return ids.length ? `held back for your approval (cairn inbox show ${ids.join(', ')})` : ''
    }
    default:
      return ''
  }
}
