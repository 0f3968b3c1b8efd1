import { useEffect, useState } from 'react'
import { useApp, useSkills, useT } from '../../app/context'
import { EmptyState, Notice } from '../../components/Feedback'
import { Pane, PaneLoading } from '../../components/Pane'
import { Icon } from '../../components/Icon'
import { CurateButton } from '../inbox/CurateButton'
import { CreateSkillDialog } from './CreateSkillDialog'
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
  const [creating, setCreating] = useState(false)
  const newSkill = (
    <button type="button" className="secondary-button small" onClick={() => setCreating(true)}>
      <Icon name="plus" size={15} />
      {t('library.newSkill')}
    </button>
  )

  useEffect(() => {
    void skills.getState().load()
  }, [skills])

  return (
    <Pane
      label={t('nav.skills')}
      title={t('skills.title')}
      extra={
        <>
          {loaded ? <span className="pane-count">{t('skills.count', { count })}</span> : null}
          <div className="pane-actions">
            {newSkill}
            <CurateButton where="skills" />
          </div>
        </>
      }
    >
      {loadError ? (
        <div className="pane-content">
          <Notice tone="error">{loadError}</Notice>
        </div>
      ) : !loaded ? (
        <PaneLoading label={t('common.loading')} />
      ) : !count && !diagnostics ? (
        <div className="pane-center">
          <EmptyState icon="skills" title={t('skills.empty')}>
            {t('skills.emptyBody')}
          </EmptyState>
        </div>
      ) : (
        <div className="split-pane skills-split">
          <div className="split-list">
            <SkillList />
          </div>
          <div className="split-detail">
            <SkillDetail />
          </div>
        </div>
      )}
      {creating ? <CreateSkillDialog onClose={() => setCreating(false)} /> : null}
    </Pane>
  )
}
