import { useState } from 'react'
import type { MessageKey } from '../../../../shared/i18n'
import type { SkillItem } from '../../../../shared/ipc/domain'
import { useApp, useT } from '../../app/context'
import { Switch } from '../../components/Controls'
import { Icon } from '../../components/Icon'

/** Who made a skill, which decides whether learning may change it without asking. */
export const madeByLabel: Record<SkillItem['madeBy'], MessageKey> = {
  cairn: 'skills.madeBy.cairn',
  user: 'skills.madeBy.user',
  import: 'skills.madeBy.import',
  external: 'skills.madeBy.external'
}

/** Pin (learning only proposes changes) and disable (out of the index, files kept), saved at once. */
export function SkillFlags({ skill }: { skill: SkillItem }): React.JSX.Element {
  const t = useT()
  const { skills, ui } = useApp()
  const [busy, setBusy] = useState(false)
  const save = async (flags: { pinned?: boolean; disabled?: boolean }): Promise<void> => {
    setBusy(true)
    const error = await skills.getState().setFlags(skill.name, flags)
    setBusy(false)
    if (error) ui.getState().toast({ tone: 'error', text: t('skills.flagsFailed', { error }) }, 10_000)
  }
  return (
    <div className="skill-flags">
      <Switch label={t('skills.pin')} hint={t('skills.pinHint')} checked={skill.pinned} disabled={busy} onChange={(pinned) => void save({ pinned })} />
      <Switch label={t('skills.disable')} hint={t('skills.disableHint')} checked={skill.disabled} disabled={busy} onChange={(disabled) => void save({ disabled })} />
    </div>
  )
}

/** What a strict Agent Skills client would reject in the SKILL.md: quiet, folded, Cairn itself loads it fine. */
export function SpecIssues({ issues }: { issues: string[] }): React.JSX.Element {
  const t = useT()
  return (
    <details className="spec-issues">
      <summary>
        <Icon name="info" size={14} />
        {t('skills.specIssues', { count: issues.length })}
      </summary>
      <p className="field-hint">{t('skills.specIssuesHint')}</p>
      <ul>
        {issues.map((issue) => (
          <li key={issue}>{issue}</li>
        ))}
      </ul>
    </details>
  )
}
