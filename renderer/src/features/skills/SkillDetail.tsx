import { useState } from 'react'
import { useApp, useSkills, useT } from '../../app/context'
import { EmptyState, Notice, Spinner } from '../../components/Feedback'
import { Icon } from '../../components/Icon'
import { Markdown } from '../../components/Markdown'
import { SkillActions } from './SkillActions'
import { SkillEditor } from './SkillEditor'
import { madeByLabel, SkillFlags, SpecIssues } from './SkillFlags'
import { SkillHistory } from './SkillHistory'
import { SkillStatsLine } from './SkillList'

type Tab = 'content' | 'files' | 'history'

/** Splits YAML front matter off a SKILL.md so the body renders as markdown and the header as data. */
export function splitFrontMatter(content: string): { frontMatter: string | null; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(content)
  return match ? { frontMatter: match[1], body: content.slice(match[0].length) } : { frontMatter: null, body: content }
}

export function SkillDetail(): React.JSX.Element {
  const name = useSkills((s) => s.selected)
  // A new skill starts out of the editor, on its content.
  return <SkillDetailOf key={name ?? ''} />
}

function SkillDetailOf(): React.JSX.Element {
  const t = useT()
  const { skills } = useApp()
  const name = useSkills((s) => s.selected)
  const detail = useSkills((s) => s.detail)
  const history = useSkills((s) => s.history)
  const detailError = useSkills((s) => s.detailError)
  const diffEntryId = useSkills((s) => s.diffEntryId)
  const [chosenTab, setTab] = useState<Tab>('content')
  const [editing, setEditing] = useState(false)
  const tab: Tab = diffEntryId !== null ? 'history' : chosenTab

  if (!name) return <EmptyState icon="skills" title={t('skills.pick')}>{t('skills.pickBody')}</EmptyState>
  if (!detail && !detailError) {
    return (
      <div className="pane-center">
        <Spinner label={t('common.loading')} />
      </div>
    )
  }
  const skill = detail?.skill
  const { frontMatter, body } = splitFrontMatter(detail?.content ?? '')
  const tabs: Array<{ id: Tab; label: string }> = [
    { id: 'content', label: 'SKILL.md' },
    { id: 'files', label: t('skills.files', { count: detail?.files.length ?? 0 }) },
    { id: 'history', label: t('skills.history', { count: history.length }) }
  ]
  return (
    <div className="skill-detail">
      <header className="skill-header">
        <h2>{name}</h2>
        <div className="skill-badges">
          {skill?.category ? <span className="badge">{skill.category}</span> : null}
          {skill?.readOnly ? <span className="badge muted"><Icon name="lock" size={12} /> {t('skills.readOnly')}</span> : null}
          {skill?.stats.stale ? <span className="badge muted">{t('skills.stale')}</span> : null}
          {skill ? <span className={`badge made-by-${skill.madeBy}`}>{t(madeByLabel[skill.madeBy])}</span> : null}
          {skill?.pinned ? <span className="badge warn"><Icon name="pin" size={12} /> {t('skills.pinned')}</span> : null}
          {skill?.disabled ? <span className="badge muted"><Icon name="ban" size={12} /> {t('skills.disabled')}</span> : null}
        </div>
        {skill ? <p className="skill-description">{skill.description}</p> : null}
        {skill ? <SkillStatsLine skill={skill} /> : null}
        {skill ? (
          <SkillActions
            skill={skill}
            editing={editing}
            onEdit={() => {
              setEditing(true)
              setTab('content')
              if (diffEntryId !== null) skills.getState().openDiff(null)
            }}
          />
        ) : null}
        {skill ? <SkillFlags skill={skill} /> : null}
        {skill?.specIssues.length ? <SpecIssues issues={skill.specIssues} /> : null}
        {skill?.warnings.map((warning) => (
          <Notice key={warning} tone="warn">
            {warning}
          </Notice>
        ))}
        {detailError ? <Notice tone="error">{detailError}</Notice> : null}
      </header>
      <div className="tabs" role="tablist">
        {tabs.map((item) => (
          <button
            key={item.id}
            type="button"
            role="tab"
            aria-selected={tab === item.id}
            className={tab === item.id ? 'tab active' : 'tab'}
            onClick={() => {
              setTab(item.id)
              // Leaving History closes the open diff so the tab choice sticks.
              if (item.id !== 'history' && diffEntryId !== null) skills.getState().openDiff(null)
            }}
          >
            {item.label}
          </button>
        ))}
      </div>
      <div className="tab-panel" role="tabpanel">
        {tab === 'content' && editing && detail ? (
          <SkillEditor name={name} original={detail.content} onDone={() => setEditing(false)} />
        ) : tab === 'content' ? (
          <>
            {frontMatter ? (
              <details className="front-matter">
                <summary>{t('skills.frontMatter')}</summary>
                <pre className="plain-code">{frontMatter}</pre>
              </details>
            ) : null}
            <Markdown text={body} className="skill-body" />
          </>
        ) : tab === 'files' ? (
          <FileList files={detail?.files ?? []} />
        ) : (
          <SkillHistory entries={history} skill={name} selectedId={diffEntryId} />
        )}
      </div>
    </div>
  )
}

function FileList({ files }: { files: string[] }): React.JSX.Element {
  const t = useT()
  if (!files.length) return <p className="muted">{t('skills.noFiles')}</p>
  return (
    <ul className="file-list">
      {files.map((file) => (
        <li key={file}>
          <Icon name="file" size={15} />
          <code>{file}</code>
        </li>
      ))}
    </ul>
  )
}
