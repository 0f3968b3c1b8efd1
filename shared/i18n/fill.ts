/** Fills `{name}` and `{name|one|other}` placeholders; it holds no dictionary, so filling costs no language loaded. */
export function fillTemplate(template: string, params?: Record<string, string | number>): string {
  if (!params) return template
  return template
    .replace(/\{(\w+)\|([^|}]*)\|([^}]*)\}/g, (whole, name: string, one: string, other: string) => (name in params ? (Number(params[name]) === 1 ? one : other) : whole))
    .replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole))
}
