/**
 * Files that make other programs run code when an ordinary command meets them: `npm test` runs
 * `package.json`'s scripts, `make` a Makefile, `pytest` any `conftest.py`, direnv an `.envrc`, an
 * editor `.vscode/tasks.json`, git its hooks and settings. A write to one is never covered by an
 * earlier grant (it is asked every time), and a skill's supporting files may not be one.
 *
 * Paths are relative and `/`-separated; names are compared ignoring case (macOS and Windows do).
 */

/** Names that run code wherever they stand, with who runs them. */
const BY_NAME: ReadonlyMap<string, string> = new Map([
  ['package.json', 'npm, pnpm and yarn run its scripts'],
  ['.npmrc', 'npm runs programs it names'],
  ['.yarnrc', 'yarn runs programs it names'],
  ['.yarnrc.yml', 'yarn runs programs and plugins it names'],
  ['.pnpmfile.cjs', 'pnpm runs it'],
  ['makefile', 'make runs it'],
  ['gnumakefile', 'make runs it'],
  ['justfile', 'just runs it'],
  ['taskfile.yml', 'task runs it'],
  ['rakefile', 'rake runs it'],
  ['gemfile', 'bundler runs it'],
  ['build.rs', 'cargo runs it on every build'],
  ['cargo.toml', 'cargo runs the build scripts it names'],
  ['cmakelists.txt', 'cmake runs it'],
  ['meson.build', 'meson runs it'],
  ['conftest.py', 'pytest runs it'],
  ['pytest.ini', 'pytest loads the plugins it names'],
  ['setup.py', 'pip and setuptools run it'],
  ['setup.cfg', 'setuptools and pytest read commands from it'],
  ['pyproject.toml', 'pip, build tools and pytest run what it names'],
  ['tox.ini', 'tox runs its commands'],
  ['noxfile.py', 'nox runs it'],
  ['sitecustomize.py', 'Python runs it at start'],
  ['usercustomize.py', 'Python runs it at start'],
  ['.envrc', 'direnv runs it on entering the folder'],
  ['.pre-commit-config.yaml', 'git commits run the hooks it names'],
  ['.gitlab-ci.yml', 'CI runs it'],
  ['jenkinsfile', 'CI runs it'],
  ['.gitattributes', 'git runs the filters it names'],
  ['.gitmodules', 'git fetches and checks out what it names'],
  ['.bashrc', 'the shell runs it'],
  ['.bash_profile', 'the shell runs it'],
  ['.profile', 'the shell runs it'],
  ['.zshrc', 'the shell runs it'],
  ['.zshenv', 'the shell runs it'],
  ['.zprofile', 'the shell runs it'],
  ['gulpfile.js', 'gulp runs it'],
  ['gruntfile.js', 'grunt runs it'],
  ['composer.json', 'composer runs its scripts'],
  ['build.gradle', 'gradle runs it'],
  ['build.gradle.kts', 'gradle runs it'],
  ['settings.gradle', 'gradle runs it'],
  ['pom.xml', 'maven runs the plugins it names'],
  ['vitest.workspace.ts', 'vitest runs it'],
  ['vitest.workspace.js', 'vitest runs it'],
  ['deno.json', 'deno runs its tasks'],
  ['bunfig.toml', 'bun runs what it names']
])

/** Folders whose files tools run, with who runs them. */
const BY_FOLDER: ReadonlyArray<[RegExp, string]> = [
  [/(^|\/)\.git(\/|$)/, 'git runs hooks and programs named there'],
  [/(^|\/)\.githooks\//, 'git runs hooks from there'],
  [/(^|\/)\.husky\//, 'git runs hooks from there'],
  [/(^|\/)\.github\/workflows\//, 'CI runs it'],
  [/(^|\/)\.circleci\//, 'CI runs it'],
  [/(^|\/)\.vscode\/(tasks|launch|settings)\.json$/, 'the editor runs the tasks and programs it names'],
  [/(^|\/)\.idea\//, 'the editor runs the tools it names'],
  [/(^|\/)\.devcontainer\//, 'the editor runs the commands it names'],
  [/(^|\/)node_modules\//, 'package managers and tools run what is there'],
  [/(^|\/)\.venv\/|(^|\/)site-packages\//, 'Python runs what is there'],
  [/(^|\/)\.cargo\/config(\.toml)?$/, 'cargo runs the programs it names']
]

/** Build and test tool configs that are themselves programs (`vitest.config.ts`, `.eslintrc.js`). */
const CONFIG_PROGRAM = /(^|\/)(\.?[\w-]+\.config|\.(eslintrc|babelrc|prettierrc|mocharc|lintstagedrc))\.(c|m)?[jt]s$|\.pth$|\.mk$/

/** Test files a runner collects and runs (`pytest`, `jest`, `vitest`, `go test`). */
const TEST_FILE = /(^|\/)(test_[^/]*\.py|[^/]*_test\.(py|go)|[^/]*\.(test|spec)\.[cm]?[jt]sx?)$/

/** Whether a test runner started in a folder above would run `path` (a skill's supporting file may not be one). */
export function isCollectedTest(path: string): boolean {
  return TEST_FILE.test(path.normalize('NFKC').toLowerCase())
}

/** Why writing `path` would make another program run code, or null when it would not. */
export function codeRunningReason(path: string): string | null {
  // Folded as a case-insensitive file system may (NFKC, `ſ` is `s`), and Windows drops trailing dots and spaces.
  const lower = path
    .normalize('NFKC')
    .replace(/\\/g, '/')
    .toLowerCase()
    .replace(/ſ/g, 's')
    .split('/')
    .map((part) => part.replace(/[. ]+$/, '') || part)
    .join('/')
  const name = lower.slice(lower.lastIndexOf('/') + 1)
  const byName = BY_NAME.get(name)
  if (byName) return byName
  for (const [folder, why] of BY_FOLDER) if (folder.test(lower)) return why
  return CONFIG_PROGRAM.test(lower) ? 'the tool that reads it runs it as a program' : null
}
