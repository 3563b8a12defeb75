// The command line of a developer tool (the benchmarks, the test harnesses, call-path): node's own
// parseArgs, which the operator commands outgrew (tools/cli/program.ts), with what a user expects of
// any command — `--help` prints the usage and the options, and a mistake is one line and exit 2
// instead of parseArgs' stack trace.
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** An option as parseArgs takes it, with the line `--help` prints for it. */
type DescribedOptions = Record<
  string,
  {
    type: 'string' | 'boolean';
    multiple?: boolean;
    short?: string;
    default?: string | boolean | string[] | boolean[];
    description?: string;
  }
>;

/** What `--help` prints: the usage line, then one line per option with its default. */
export function helpText(usage: string, options: DescribedOptions = {}): string {
  const lines = Object.entries(options).map(([name, o]) => {
    const flag = `--${name}${o.type === 'string' ? ' <value>' : ''}`;
    const notes = [o.description, o.default !== undefined ? `default ${JSON.stringify(o.default)}` : undefined].filter(Boolean);
    return `  ${flag.padEnd(28)} ${notes.join('; ')}`.trimEnd();
  });
  return `usage: ${usage}\n${lines.length ? `\noptions:\n${lines.join('\n')}\n  --help                       this text\n` : ''}`;
}

/**
 * parseArgs of `config`, after `--help` (before any `--`: what follows it belongs to another
 * program, pytest say) and with a usage error for what parseArgs refuses.
 */
export function commandLine<T extends ParseArgsConfig & { options?: DescribedOptions }>(
  usage: string,
  config: T,
): ReturnType<typeof parseArgs<T>> {
  const args = config.args ?? process.argv.slice(2);
  const own = args.includes('--') ? args.slice(0, args.indexOf('--')) : args;
  if (own.includes('--help') || own.includes('-h')) {
    process.stdout.write(helpText(usage, config.options));
    process.exit(0);
  }
  try {
    return parseArgs(config);
  } catch (e) {
    if (!String((e as { code?: unknown }).code ?? '').startsWith('ERR_PARSE_ARGS')) throw e;
    process.stderr.write(`${(e as Error).message.split('. ')[0]}\nusage: ${usage} (--help lists the options)\n`);
    process.exit(2);
  }
}

/**
 * A harness's own flags, and every other argument as it was written and in order, for the program
 * it runs: `npm run test:interop -- --version mcp -k restore -x` hands `-k restore -x` to pytest.
 */
export function ownFlagsAndRest<const O extends DescribedOptions>(usage: string, options: O, argv: string[]) {
  const { tokens } = commandLine(usage, { args: argv, options, strict: false, allowPositionals: true, tokens: true });
  const own: string[] = [];
  const rest: string[] = [];
  for (const t of tokens) {
    if (t.kind !== 'option' || !Object.hasOwn(options, t.name)) rest.push(argv[t.index]!);
    else own.push(...argv.slice(t.index, t.value === undefined || t.inlineValue ? t.index + 1 : t.index + 2));
  }
  // Parsed again, strictly, so that the values are typed by the options.
  return { values: parseArgs({ args: own, options, strict: true }).values, rest };
}
