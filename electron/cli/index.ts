import { runCli } from './main'

// Entry point of the `cairn` command (npm run -s cairn -- …).
void runCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code
})
