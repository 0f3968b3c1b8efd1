import { useId, useState } from 'react'
import type { SkillItem } from '../../../../shared/ipc/domain'
import { useApp, useLocale, useSkills, useT } from '../../app/context'
import { Icon } from '../../components/Icon'
import { relativeTime, useNow } from '../../lib/time'
import { byCategory, matchesQuery } from '../../stores/skills'

/** Skills by category, with how often and how well each is used, and what failed to load; filtered by the search box. */
export function SkillList(): React.JSX.Element {
  const t = useT()
  const skills = useSkills((s) => s.skills)
  const selected = useSkills((s) => s.selected)
  const query = useSkills((s) => s.query)
  const shown = skills.filter((skill) => matchesQuery(skill, query))
  const groups = byCategory(shown)
  return (
    <div className="skill-list">
      <SkillSearch first={shown[0]?.name ?? null} />
      {query.trim() && !shown.length ? <p className="skill-no-matches muted">{t('library.noMatches', { query: query.trim() })}</p> : null}
      {groups.map((group) => (
        <div key={group.category ?? ''} className="skill-group">
          <div className="sidebar-heading">{group.category ?? t('skills.uncategorised')}</div>
          <ul>
            {group.skills.map((skill) => (
              <SkillRow key={skill.path} skill={skill} active={skill.name === selected} />
            ))}
          </ul>
        </div>
      ))}
      <Diagnostics />
    </div>
  )
}

/** Instant search over name, description and category; Enter opens the first match, Esc clears. */
function SkillSearch({ first }: { first: string | null }): React.JSX.Element {
  const t = useT()
  const { skills } = useApp()
  const query = useSkills((s) => s.query)
  const id = useId()
  return (
    <div className="skill-search" role="search">
      <label htmlFor={id} className="visually-hidden">
        {t('library.search')}
      </label>
      <Icon name="search" size={15} />
      <input
        id={id}
        type="search"
        className="text-input"
        value={query}
        placeholder={t('library.searchPlaceholder')}
        autoComplete="off"
        spellCheck={false}
        onChange={(event) => skills.getState().setQuery(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && first) {
            event.preventDefault()
            void skills.getState().select(first)
          } else if (event.key === 'Escape' && query) {
            event.preventDefault()
            event.stopPropagation()
            skills.getState().setQuery('')
          }
        }}
      />
    </div>
  )
}

function SkillRow({ skill, active }: { skill: SkillItem; active: boolean }): React.JSX.Element {
  const t = useT()
  const { skills } = useApp()
  const { stats } = skill
  return (
    <li>
      <button
        type="button"
        className={`skill-row${active ? ' active' : ''}${skill.disabled ? ' disabled' : ''}`}
        aria-current={active ? 'true' : undefined}
        onClick={() => void skills.getState().select(skill.name)}
      >
        <span className="skill-row-name">
          <span>{skill.name}</span>
          {skill.pinned ? (
            <span title={t('skills.pinned')} aria-label={t('skills.pinned')}>
              <Icon name="pin" size={13} />
            </span>
          ) : null}
          {skill.disabled ? <span className="badge muted">{t('skills.disabled')}</span> : null}
          {skill.readOnly ? (
            <span title={t('skills.readOnly')} aria-label={t('skills.readOnly')}>
              <Icon name="lock" size={13} />
            </span>
          ) : null}
          {stats.stale ? <span className="badge muted">{t('skills.stale')}</span> : null}
          {skill.warnings.length ? <span className="badge warn">{t('skills.warningCount', { count: skill.warnings.length })}</span> : null}
        </span>
        <span className="skill-row-desc">{skill.description}</span>
        <span className="skill-row-meta">
          {t('skills.uses', { count: stats.useCount })}
          {stats.successRate !== null ? ` · ${t('skills.successShort', { percent: Math.round(stats.successRate * 100) })}` : ''}
        </span>
      </button>
    </li>
  )
}

function Diagnostics(): React.JSX.Element | null {
  const t = useT()
  const diagnostics = useSkills((s) => s.diagnostics)
  const [open, setOpen] = useState(false)
  if (!diagnostics.length) return null
  const skipped = diagnostics.filter((d) => d.severity === 'skipped').length
  return (
    <div className="diagnostics">
      <button type="button" className="diagnostics-head" aria-expanded={open} onClick={() => setOpen(!open)}>
        <Icon name={open ? 'chevronDown' : 'chevronRight'} size={13} />
        <Icon name="alert" size={14} />
        {t('skills.diagnostics', { skipped, warnings: diagnostics.length - skipped })}
      </button>
      {open ? (
        <ul className="diagnostics-list">
          {diagnostics.map((d, index) => (
            <li key={index} className={d.severity}>
              <span className={`badge ${d.severity === 'skipped' ? 'danger' : 'warn'}`}>{d.severity === 'skipped' ? t('skills.skipped') : t('skills.warning')}</span>
              <code className="diag-path">{d.path}</code>
              <span className="diag-reason">{d.reason}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}

/** "12 uses · last used 3 days ago · 80% success (4 of 5)" for the detail header. */
export function SkillStatsLine({ skill }: { skill: SkillItem }): React.JSX.Element {
  const t = useT()
  const locale = useLocale()
  const now = useNow()
  const { stats } = skill
  const parts = [
    t('skills.uses', { count: stats.useCount }),
    stats.lastUsedAt !== null ? t('skills.lastUsed', { when: relativeTime(stats.lastUsedAt, now, locale) }) : t('skills.neverUsed'),
    stats.successRate !== null
      ? t('skills.successRate', { percent: Math.round(stats.successRate * 100), ok: stats.successCount, total: stats.successCount + stats.failureCount })
      : null,
    t('skills.patches', { count: stats.patchCount })
  ].filter(Boolean)
  return <p className="skill-stats">{parts.join(' · ')}</p>
}
