import { useId, type ReactNode } from 'react'

/** An on/off switch with its label and an optional explanation. */
export function Switch({ setting, label, hint, checked, disabled, onChange }: { setting?: string; label: string; hint?: string; checked: boolean; disabled?: boolean; onChange(checked: boolean): void }): React.JSX.Element {
  const id = useId()
  return (
    <div className="field-row" data-setting={setting}>
      <div className="field-text">
        <label htmlFor={id} className="field-label">
          {label}
        </label>
        {hint ? <p className="field-hint">{hint}</p> : null}
      </div>
      <button id={id} type="button" role="switch" aria-checked={checked} disabled={disabled} className={checked ? 'switch on' : 'switch'} onClick={() => onChange(!checked)}>
        <span className="switch-knob" />
      </button>
    </div>
  )
}

/** A small set of exclusive choices shown as one control. */
export function Segmented<T extends string>({ label, value, options, onChange }: { label: string; value: T; options: Array<{ value: T; label: string }>; onChange(value: T): void }): React.JSX.Element {
  return (
    <div className="segmented" role="radiogroup" aria-label={label}>
      {options.map((option) => (
        <button key={option.value} type="button" role="radio" aria-checked={option.value === value} className={option.value === value ? 'active' : ''} onClick={() => onChange(option.value)}>
          {option.label}
        </button>
      ))}
    </div>
  )
}

/** A labelled form field (the label is wired to the first control via `id`). */
export function Field({ label, hint, htmlFor, children }: { label: string; hint?: ReactNode; htmlFor?: string; children: ReactNode }): React.JSX.Element {
  return (
    <div className="field">
      <label className="field-label" htmlFor={htmlFor}>
        {label}
      </label>
      {children}
      {hint ? <div className="field-hint">{hint}</div> : null}
    </div>
  )
}
