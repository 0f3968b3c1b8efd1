import { useEffect } from 'react'
import { useApp, useSkills, useT } from '../../app/context'
import { EmptyState, Notice, Spinner } from '../../components/Feedback'
import { SkillDetail } from './SkillDetail'
import { SkillList } from './SkillList'

/** The skill browser: list by category on the left, the chosen skill on the right. */
export function SkillsView(): React.JSX.Element {
  const t = useT()
  const { skills } = useApp()
  const loaded = useSkills((s) => s.loaded)
  const loadError = useSkills((s) => s.loadError)
  const count = useSkills((s) => s.skills.length)
  const diagnostics = useSkills((s) => s.diagnostics.length)

  useEffect(() => {
    void skills.getState().load()
  }, [skills])

  return (
    <section className="pane" aria-label={t('nav.skills')}>
      <header className="pane-header">
        <h1 className="pane-title">{t('skills.title')}</h1>
        {loaded ? <span className="pane-count">{t('skills.count', { count })}</span> : null}
      </header>
      {loadError ? (
        <div className="pane-content">
          <Notice tone="error">{loadError}</Notice>
        </div>
      ) : !loaded ? (
        <div className="pane-center">
          <Spinner label={t('common.loading')} />
        </div>
      ) : !count && !diagnostics ? (
        <div className="pane-center">
          <EmptyState icon="skills" title={t('skills.empty')}>
            {t('skills.emptyBody')}
          </EmptyState>
        </div>
      ) : (
        <div className="split-pane">
          <div className="split-list">
            <SkillList />
          </div>
          <div className="split-detail">
            <SkillDetail />
          </div>
        </div>
      )}
    </section>
  )
}
