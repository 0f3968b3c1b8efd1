import { useMemo } from 'react'
import { useT } from '../../app/context'
import { DiffViewer } from '../skills/DiffViewer'
import { FoldedText } from './FoldedText'
import { TerminalBlock } from './TerminalBlock'
import { hostOf, parseFields, str, type Fields } from './tool-view'
import type { ToolItem } from '../../stores/chat-items'

const EXCERPT_CHARS = 400

/** What a tool call did, shown the way its kind reads best: a terminal, a diff, a page, a list. */
export function ToolBody({ item }: { item: ToolItem }): React.JSX.Element {
  // A 1 MB result is parsed once per call, not on every render of its row.
  const args = useMemo(() => parseFields(item.arguments), [item.arguments])
  const result = useMemo(() => (item.result === null ? null : parseFields(item.result)), [item.result])
  const error = result && result.success === false && item.name !== 'run_command' ? str(result, 'error') : undefined
  return (
    <>
      <KindBody item={item} args={args} result={result} />
      {error ? <ToolError text={error} /> : null}
    </>
  )
}

function KindBody({ item, args, result }: { item: ToolItem; args: Fields; result: Fields | null }): React.JSX.Element | null {
  const failed = result?.success === false
  switch (item.name) {
    case 'run_command':
      return <TerminalBlock args={args} result={result} durationMs={item.durationMs} />
    case 'edit_file':
    case 'write_file':
      return failed ? null : <FileChange name={item.name} args={args} result={result} />
    case 'fetch_url':
      return result && !failed ? <FetchedPage args={args} result={result} /> : <Address text={str(args, 'url') ?? ''} />
    case 'read_file':
      return result && !failed ? <PathAndText path={str(result, 'path') ?? str(args, 'path') ?? ''} text={str(result, 'content') ?? ''} /> : <Address text={str(args, 'path') ?? ''} />
    case 'list_dir':
    case 'search_files':
      return result && !failed ? <PathAndText path={str(result, 'path') ?? str(args, 'path') ?? ''} text={listed(result).join('\n')} note={str(result, 'note')} /> : null
    case 'session_search':
      return result && !failed ? <FoundSessions result={result} /> : null
    case 'memory':
      return <MemoryChange args={args} duplicate={result?.duplicate === true} />
    case 'skill_manage':
      return <SkillChange args={args} />
    case 'skill_view':
    case 'skills_list':
      return null
    default:
      return <FieldsView fields={args} raw={item.arguments} result={result} rawResult={item.result} />
  }
}

function ToolError({ text }: { text: string }): React.JSX.Element {
  const t = useT()
  return (
    <p className="tool-error" role="note" aria-label={t('tools.error')}>
      {text}
    </p>
  )
}

function Address({ text }: { text: string }): React.JSX.Element | null {
  return text ? <div className="tool-address">{text}</div> : null
}

/** A file write or edit as a diff: the edit's old text against its new text, a new file against nothing. */
function FileChange({ name, args, result }: { name: string; args: Fields; result: Fields | null }): React.JSX.Element {
  const t = useT()
  const path = str(result ?? {}, 'path') ?? str(args, 'path') ?? ''
  if (result?.unchanged === true) return <p className="tool-quiet">{t('tools.unchanged')}</p>
  if (name === 'edit_file') return <DiffViewer before={str(args, 'old_string') ?? ''} after={str(args, 'new_string') ?? ''} fileName={path} />
  const content = str(args, 'content') ?? ''
  // A whole-file write reports no earlier content, so only a new file can be shown as a diff.
  if (!result || result.created === true) return <DiffViewer before={null} after={content} fileName={path} />
  return (
    <>
      <p className="tool-quiet">{t('tools.replacedWhole')}</p>
      <FoldedText text={content} />
    </>
  )
}

function FetchedPage({ args, result }: { args: Fields; result: Fields }): React.JSX.Element {
  const t = useT()
  const address = str(result, 'final_url') ?? str(result, 'url') ?? str(args, 'url') ?? ''
  const content = (str(result, 'content') ?? '').replace(/\s+/g, ' ').trim()
  const excerpt = content.length > EXCERPT_CHARS ? `${content.slice(0, EXCERPT_CHARS)}…` : content
  return (
    <div className="fetched-page">
      <div className="fetched-title">{str(result, 'title') || hostOf(address) || t('tools.pageTitleMissing')}</div>
      {excerpt ? <p className="fetched-excerpt">{excerpt}</p> : null}
      <div className="tool-address">{address}</div>
    </div>
  )
}

function PathAndText({ path, text, note }: { path: string; text: string; note?: string }): React.JSX.Element {
  return (
    <>
      <Address text={path} />
      {text ? <FoldedText text={text} /> : null}
      {note ? <p className="tool-quiet">{note}</p> : null}
    </>
  )
}

/** A folder listing's entries (folders end in "/"), or a search's matches or files. */
function listed(result: Fields): string[] {
  const list = [result.matches, result.files, result.entries].find(Array.isArray) as unknown[] | undefined
  return (list ?? []).map((entry) => {
    if (typeof entry === 'string') return entry
    const record = isRecord(entry) ? entry : {}
    const path = str(record, 'path') ?? ''
    return record.type === 'dir' ? `${path}/` : path
  })
}

function isRecord(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Past conversations a search found: each title with its snippet (the `>>>match<<<` marks as highlights). */
function FoundSessions({ result }: { result: Fields }): React.JSX.Element | null {
  const t = useT()
  const sessions = Array.isArray(result.sessions) ? result.sessions.filter(isRecord) : []
  if (!sessions.length) return str(result, 'note') ? <p className="tool-quiet">{str(result, 'note')}</p> : null
  return (
    <>
      <p className="tool-quiet">{t('tools.sessionsFound', { count: sessions.length })}</p>
      <ul className="found-sessions">
        {sessions.map((found, index) => (
          <li key={index}>
            <div className="found-title">{str(found, 'title') ?? str(found, 'session_id') ?? ''}</div>
            <div className="found-snippet">{marked(str(found, 'snippet') ?? str(found, 'preview') ?? '')}</div>
          </li>
        ))}
      </ul>
    </>
  )
}

function marked(snippet: string): React.ReactNode {
  return snippet.split(/>>>|<<</).map((part, index) => (index % 2 ? <mark key={index}>{part}</mark> : part))
}

interface MemoryOperation {
  action?: unknown
  content?: unknown
  old_text?: unknown
}

/** Memory changes in words: what was added, what an entry now reads, what was removed; an add already saved says so. */
function MemoryChange({ args, duplicate }: { args: Fields; duplicate: boolean }): React.JSX.Element | null {
  const t = useT()
  const operations = (Array.isArray(args.operations) && args.operations.length > 0 ? args.operations : [args]) as MemoryOperation[]
  const rows = operations.flatMap((op, index) => {
    const content = typeof op.content === 'string' ? op.content : ''
    const old = typeof op.old_text === 'string' ? op.old_text : ''
    if (op.action === 'add' && content) return [<MemoryLine key={index} label={t(duplicate ? 'memory.tool.alreadySaved' : 'tools.memoryAdded')} text={content} />]
    if (op.action === 'replace') return [<MemoryLine key={index} label={t('tools.memoryReplaced')} text={content} was={old} />]
    if (op.action === 'remove' && old) return [<MemoryLine key={index} label={t('tools.memoryRemoved')} text={old} />]
    return []
  })
  return rows.length ? <ul className="memory-ops">{rows}</ul> : null
}

function MemoryLine({ label, text, was }: { label: string; text: string; was?: string }): React.JSX.Element {
  return (
    <li>
      <span className="memory-op-label">{label}</span>
      {was ? <del className="memory-op-was">{was}</del> : null}
      <span className="memory-op-text">{text}</span>
    </li>
  )
}

function SkillChange({ args }: { args: Fields }): React.JSX.Element | null {
  const file = str(args, 'file_path') ?? 'SKILL.md'
  const action = str(args, 'action')
  if (action === 'patch') return <DiffViewer before={str(args, 'old_string') ?? ''} after={str(args, 'new_string') ?? ''} fileName={file} />
  const text = action === 'write_file' ? str(args, 'file_content') : action === 'create' || action === 'edit' ? str(args, 'content') : undefined
  return text ? (
    <>
      <Address text={file} />
      <FoldedText text={text} />
    </>
  ) : null
}

/** A tool Cairn has no view for: each field by name, text shown as text (real line breaks, not JSON escapes). */
function FieldsView({ fields, raw, result, rawResult }: { fields: Fields; raw: string; result: Fields | null; rawResult: string | null }): React.JSX.Element {
  const t = useT()
  return (
    <>
      <div className="tool-call-section">{t('chat.tool.arguments')}</div>
      <FieldList fields={fields} raw={raw} empty={t('chat.tool.noArguments')} />
      <div className="tool-call-section">{t('chat.tool.result')}</div>
      {result === null ? <p className="tool-quiet">{t('chat.tool.waiting')}</p> : <FieldList fields={result} raw={rawResult ?? ''} empty="" />}
    </>
  )
}

function FieldList({ fields, raw, empty }: { fields: Fields; raw: string; empty: string }): React.JSX.Element {
  const entries = Object.entries(fields)
  if (!entries.length) return raw.trim() && raw.trim() !== '{}' ? <FoldedText text={raw} /> : <p className="tool-quiet">{empty}</p>
  return (
    <dl className="tool-fields">
      {entries.map(([key, value]) => (
        <div key={key} className="tool-field">
          <dt>{key}</dt>
          <dd>
            <FieldValue value={value} depth={1} />
          </dd>
        </div>
      ))}
    </dl>
  )
}

/** Nested objects and arrays as nested fields, so a string inside them keeps its line breaks too. */
function FieldValue({ value, depth }: { value: unknown; depth: number }): React.JSX.Element {
  if (typeof value === 'string') return <FoldedText text={value} />
  const nested = isRecord(value) ? Object.entries(value) : Array.isArray(value) ? value.map((item, index) => [String(index + 1), item] as const) : null
  if (!nested || depth > 3 || nested.length === 0) return <FoldedText text={JSON.stringify(value) ?? ''} />
  return (
    <dl className="tool-fields nested">
      {nested.map(([key, inner]) => (
        <div key={key} className="tool-field">
          <dt>{key}</dt>
          <dd>
            <FieldValue value={inner} depth={depth + 1} />
          </dd>
        </div>
      ))}
    </dl>
  )
}
