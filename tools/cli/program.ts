// The operator command line's shared part (docs/operators.md): every `npm run <tool>` builds its
// program here, so `--help`, usage errors, exit codes and the options several tools take are
// spelled and behave the same everywhere. commander does the parsing.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Command, Help, InvalidArgumentError, Option } from 'commander';
import { dataDir, defaultBoltPort } from '../embedded.ts';

/**
 * Exit codes every tool shares. A tool's own meanings (restore's drift, migrate's due migration,
 * and the backup tools' failures, which exit 2 as they always have) are in docs/operators.md.
 */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

/**
 * A program for `npm run <script>`: help on `-h, --help` (exit 0), and any parse error (an unknown
 * option, a missing argument, a bad value, `command.error(...)`) is one line on stderr and exit 2.
 * Subcommands made with `.command()` afterwards inherit all of it.
 */
export function createProgram(script: string, description: string): Command {
  return new Command(`npm run ${script} --`)
    .description(description)
    .helpOption('-h, --help', 'show this help and exit')
    .showSuggestionAfterError(true)
    .configureHelp({
      // A switch is off unless given: "(default: false)" would say nothing.
      optionDescription(option) {
        return Help.prototype.optionDescription.call(this, option).replace(' (default: false)', '');
      },
    })
    .configureOutput({
      // commander may add a second line (a suggestion); an operator's terminal gets one.
      outputError: (text, write) =>
        write(
          `${script}: ${text
            .replace(/^error: /, '')
            .trim()
            .replace(/\s*\n\s*/g, ' ')} (see npm run ${script} -- --help)\n`,
        ),
    })
    .exitOverride((e) => process.exit(e.exitCode === 0 ? EXIT.ok : EXIT.usage));
}

/** Parses a count option's text; a bad one is a usage error naming the option. */
export function integerAtLeast(min: number): (text: string) => number {
  return (text) => {
    const n = Number(text);
    if (text.trim() === '' || !Number.isInteger(n) || n < min)
      throw new InvalidArgumentError(min === 0 ? 'must be a non-negative integer' : `must be an integer of at least ${min}`);
    return n;
  };
}

/** Where a tool finds Neo4j: the same flags (and environment) for every tool that opens the store. */
export interface Neo4jConnection {
  neo4jUri: string;
  neo4jUser?: string | undefined;
  neo4jDatabase: string;
}

/** `--neo4j-uri`, `--neo4j-user`, `--neo4j-database`; the password only from NEO4J_PASSWORD (not in `ps`). */
export function neo4jOptions(): Option[] {
  return [
    new Option('--neo4j-uri <uri>', 'the Neo4j to work on (the default is the embedded one of npm start)')
      .env('NEO4J_URI')
      .default(`bolt://127.0.0.1:${defaultBoltPort}`),
    new Option('--neo4j-user <name>', 'its user (the password comes from NEO4J_PASSWORD)').env('NEO4J_USER'),
    new Option('--neo4j-database <name>', 'its database').env('NEO4J_DATABASE').default('neo4j'),
  ];
}

/** A tool's options in the order its help lists them: its own first, the shared ones after. */
export function addOptions(command: Command, options: Option[]): Command {
  for (const option of options) command.addOption(option);
  return command;
}

/** `--data-dir`: npm start's embedded data (Neo4j home, secrets, checkpoints). */
export function dataDirOption(): Option {
  return new Option('--data-dir <dir>', "npm start's data folder: its Neo4j home, secrets and checkpoints")
    .env('LINEAGE_DATA_DIR')
    .default(dataDir);
}

/** `-q, --quiet`: no progress bar or progress lines (results and errors are still printed). */
export function quietOption(): Option {
  return new Option('-q, --quiet', 'no progress bar or progress lines').default(false);
}

/** `--actor URN`, the same default wherever a tool acts for someone. */
export function actorOption(description: string): Option {
  return new Option('--actor <urn>', description).default('urn:li:corpuser:datahub');
}

/** `--home DIR`: the Neo4j home a tool works on offline; the default is stated by each command. */
export function homeOption(description: string): Option {
  return new Option('--home <dir>', description);
}

/** `--resume` and `--checkpoint FILE`, as import and restore-indices keep their position. */
function checkpointOptions(fileName: string): Option[] {
  return [
    new Option('--resume', 'continue from the checkpoint after a crash').default(false),
    new Option('--checkpoint <file>', `where the position is kept after every committed batch (default: <data-dir>/${fileName})`),
  ];
}

/** The checkpoint `--resume` continues from; none to read is the command's usage error. */
function readCheckpoint<T>(command: Command, file: string): T {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    command.error(`--resume: no readable checkpoint at ${file}`);
  }
}

/** Write-then-rename: a crash mid-write never leaves a torn checkpoint. */
function saveCheckpoint(file: string, checkpoint: object): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(`${file}.tmp`, JSON.stringify(checkpoint, null, 2));
  renameSync(`${file}.tmp`, file);
}

/** How a long command keeps its position after every committed batch: its options, the read on --resume, the save. */
export const checkpoint = { options: checkpointOptions, read: readCheckpoint, save: saveCheckpoint };

export function batchSizeOption(defaultSize: number, what: string): Option {
  return new Option('--batch-size <n>', `${what} per transaction`).argParser(integerAtLeast(1)).default(defaultSize);
}

export function urnLikeOption(what: string): Option {
  return new Option('--urn-like <pattern>', `only urns matching this LIKE pattern (% and _) ${what}`);
}
