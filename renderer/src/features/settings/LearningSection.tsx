import { useEffect, useId, useState } from 'react'
import { useApp, useSettings, useT } from '../../app/context'
import { Switch } from '../../components/Controls'
import { Notice } from '../../components/Feedback'
import { describePauseReason } from '../../../../shared/i18n/describe'
import { effectiveMode } from '../../stores/settings'
import { LearningModeField } from './LearningModeField'

/** Background learning: its mode (Auto, Ask, Off), skill creation, how often reviews run, and whether it is paused. */
export function LearningSection(): React.JSX.Element | null {
  const t = useT()
  const { settings } = useApp()
  const learning = useSettings((s) => s.view?.config.learning)
  const status = useSettings((s) => s.learning)
  if (!learning) return null
  const save = (patch: Partial<typeof learning>) => void settings.getState().update({ learning: patch })
  const off = !learning.enabled || learning.mode === 'off'

  return (
    <section className="card" aria-labelledby="settings-learning">
      <header className="card-head">
        <div>
          <h2 id="settings-learning" data-setting="settings.learning.title">{t('settings.learning.title')}</h2>
          <p className="muted">{t('settings.learning.lead')}</p>
        </div>
      </header>
      {status?.paused ? (
        <Notice
          tone="warn"
          actions={
            <button type="button" className="primary-button small" onClick={() => void settings.getState().resumeLearning()}>
              {t('settings.learning.resume')}
            </button>
          }
        >
          {status.pausedReason ? describePauseReason(status.pausedReason, t) : t('settings.learning.paused')}
        </Notice>
      ) : status ? (
        <p className="status-line">
          <span className={`learning-light ${effectiveMode(status) === 'off' ? 'off' : status.running ? 'running' : 'on'}`} />
          {effectiveMode(status) === 'off'
            ? t('settings.learning.statusOff')
            : status.running
              ? t('settings.learning.statusRunning', { queued: status.queued })
              : status.queued
                ? t('settings.learning.statusQueued', { queued: status.queued })
                : t('settings.learning.statusIdle')}
        </p>
      ) : null}
      <LearningModeField mode={off ? 'off' : learning.mode} />
      <Switch
        setting="settings.learning.skills"
        label={t('settings.learning.skills')}
        hint={t('settings.learning.skillsHint')}
        checked={learning.allowSkillCreation}
        disabled={off}
        onChange={(allowSkillCreation) => save({ allowSkillCreation })}
      />
      <IntervalField
        setting="settings.learning.memoryInterval"
        label={t('settings.learning.memoryInterval')}
        hint={t('settings.learning.intervalHint')}
        unit={t('settings.learning.turns')}
        value={learning.memoryNudgeInterval}
        disabled={off}
        onSave={(memoryNudgeInterval) => save({ memoryNudgeInterval })}
      />
      {/* The skill trigger counts tool steps, not user turns. */}
      <IntervalField
        setting="settings.learning.skillInterval"
        label={t('settings.learning.skillInterval')}
        hint={t('settings.learning.skillIntervalHint')}
        unit={t('settings.learning.steps')}
        value={learning.skillNudgeInterval}
        disabled={off}
        onSave={(skillNudgeInterval) => save({ skillNudgeInterval })}
      />
    </section>
  )
}

/** A whole number (of turns or tool steps), saved when you leave the field (0 turns the trigger off). */
function IntervalField({ setting, label, hint, unit, value, disabled, onSave }: { setting: string; label: string; hint: string; unit: string; value: number; disabled: boolean; onSave(value: number): void }): React.JSX.Element {
  const t = useT()
  const id = useId()
  const [text, setText] = useState(String(value))
  useEffect(() => setText(String(value)), [value])
  const parsed = Number(text)
  const valid = text.trim() !== '' && Number.isInteger(parsed) && parsed >= 0
  const commit = (): void => {
    if (valid && parsed !== value) onSave(parsed)
    if (!valid) setText(String(value))
  }
  return (
    <div className="field-row" data-setting={setting}>
      <div className="field-text">
        <label className="field-label" htmlFor={id}>
          {label}
        </label>
        <p className="field-hint">{parsed === 0 && valid ? t('settings.learning.intervalOff') : hint}</p>
      </div>
      <div className="number-field">
        <input
          id={id}
          className="text-input number"
          type="number"
          min={0}
          step={1}
          value={text}
          disabled={disabled}
          aria-invalid={!valid}
          onChange={(event) => setText(event.target.value)}
          onBlur={commit}
          onKeyDown={(event) => event.key === 'Enter' && commit()}
        />
        <span className="muted">{unit}</span>
      </div>
    </div>
  )
}
