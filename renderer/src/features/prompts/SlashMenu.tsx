import { useId } from 'react'
import { useT } from '../../app/context'
import { McpPromptArguments } from '../chat/mcp/McpPromptMenu'
import { promptLabel } from '../chat/mcp/useMcpPrompts'
import { PromptFillForm } from './PromptFillForm'
import { PromptLibraryDialog } from './PromptLibraryDialog'
import type { SlashEntry, SlashMenu } from './useSlashMenu'
import './prompts.css'

const groupOf = (entry: SlashEntry): 'saved' | 'mcp' | 'manage' => entry.kind

/**
 * The `/` menu above the composer, as a combobox's listbox: the box keeps focus and drives it (↑/↓,
 * Enter or Tab, Esc). Rows are grouped (saved prompts, MCP servers' prompts, then "Manage prompts…");
 * `${id}-${index}` names each row for `aria-activedescendant`.
 */
export function SlashMenuList({ menu, id }: { menu: SlashMenu; id: string }): React.JSX.Element | null {
  const t = useT()
  const headingId = useId()
  if (!menu.open) return null
  const groups = (['saved', 'mcp', 'manage'] as const)
    .map((group) => ({ group, rows: menu.entries.map((entry, index) => ({ entry, index })).filter(({ entry }) => groupOf(entry) === group) }))
    .filter(({ rows }) => rows.length > 0)
  return (
    <div id={id} className="slash-menu" role="listbox" aria-label={t('prompts.menu.label')}>
      {groups.map(({ group, rows }) => (
        <div key={group} role="group" aria-labelledby={group === 'manage' ? undefined : `${headingId}-${group}`} className="slash-menu-group">
          {group === 'manage' ? null : (
            <div id={`${headingId}-${group}`} role="presentation" className="slash-menu-heading">
              {t(group === 'saved' ? 'prompts.menu.saved' : 'prompts.menu.mcp')}
            </div>
          )}
          {rows.map(({ entry, index }) => (
            <div
              key={entryKey(entry)}
              id={`${id}-${index}`}
              role="option"
              aria-selected={index === menu.active}
              className={`slash-menu-option${index === menu.active ? ' active' : ''}${entry.kind === 'manage' ? ' manage' : ''}`}
              onMouseEnter={() => menu.setActive(index)}
              // Before the box would lose focus to the click.
              onMouseDown={(event) => {
                event.preventDefault()
                menu.pick(entry)
              }}
            >
              <EntryText entry={entry} />
            </div>
          ))}
        </div>
      ))}
    </div>
  )
}

function EntryText({ entry }: { entry: SlashEntry }): React.JSX.Element {
  const t = useT()
  if (entry.kind === 'manage') {
    return (
      <>
        <span className="slash-menu-name">{t('prompts.menu.manage')}</span>
        <span className="slash-menu-description">{t('prompts.menu.manageHint')}</span>
      </>
    )
  }
  const name = entry.kind === 'saved' ? `/${entry.prompt.name}` : promptLabel(entry.prompt)
  const description = entry.prompt.description
  return (
    <>
      <span className="slash-menu-name">{name}</span>
      {description ? <span className="slash-menu-description">{description}</span> : null}
    </>
  )
}

function entryKey(entry: SlashEntry): string {
  if (entry.kind === 'manage') return 'manage'
  return entry.kind === 'saved' ? `saved:${entry.prompt.name}` : `mcp:${entry.prompt.server}:${entry.prompt.name}`
}

/** What the `/` menu opens below the composer: a saved prompt's variables, an MCP prompt's arguments, the library. */
export function SlashMenuDialogs({ menu }: { menu: SlashMenu }): React.JSX.Element {
  return (
    <>
      {menu.filling ? <PromptFillForm key={menu.filling.name} prompt={menu.filling} onCancel={menu.closeFilling} onInsert={(values) => menu.insert(menu.filling!, values)} /> : null}
      <McpPromptArguments menu={menu.mcp} />
      <PromptLibraryDialog />
    </>
  )
}
