import { readFileSync } from 'node:fs';

/** One Dockerfile instruction: its keyword, its leading `--flag=value` options and the rest. */
export interface Instruction {
  keyword: string;
  flags: Record<string, string>;
  args: string;
}

export interface Stage {
  image: string;
  name: string;
  instructions: Instruction[];
}

/** Dockerfile instructions, with line continuations joined and comments dropped. */
export function dockerInstructions(text: string): Instruction[] {
  return text
    .split('\n')
    .filter((line) => !line.trim().startsWith('#'))
    .join('\n')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => {
      const [keyword, ...rest] = line.split(/\s+/);
      const flags: Record<string, string> = {};
      while (rest[0]?.startsWith('--')) {
        const [name, value = ''] = rest.shift()!.slice(2).split(/=(.*)/s);
        flags[name] = value;
      }
      return { keyword: keyword.toUpperCase(), flags, args: rest.join(' ') };
    });
}

/** The stages, each with the instructions after its FROM. */
export function dockerStages(text: string): Stage[] {
  const stages: Stage[] = [];
  for (const instruction of dockerInstructions(text)) {
    if (instruction.keyword === 'FROM') {
      const [image, as, name] = instruction.args.split(/\s+/);
      stages.push({ image, name: as?.toUpperCase() === 'AS' ? name : String(stages.length), instructions: [] });
    } else if (stages.length > 0) {
      stages[stages.length - 1].instructions.push(instruction);
    }
  }
  return stages;
}

export const readStages = (path: string): Stage[] => dockerStages(readFileSync(path, 'utf8'));

/** The argument vector of an exec-form (`["a", "b"]`) or shell-form instruction. */
export const execForm = (args: string): string[] => (args.startsWith('[') ? (JSON.parse(args) as string[]) : ['sh', '-c', args]);

/** `ENV`/`ARG`/`LABEL` pairs: `K=V K2="V 2"` (ARG without a default gives ''). */
export function assignments(args: string): Record<string, string> {
  const pairs: Record<string, string> = {};
  for (const match of args.matchAll(/([\w.-]+)(?:=("(?:[^"\\]|\\.)*"|\S*))?/g)) {
    const value = match[2] ?? '';
    pairs[match[1]] = value.startsWith('"') ? (JSON.parse(value) as string) : value;
  }
  return pairs;
}

/** `${NAME}` and `$NAME` replaced from `values` (what Docker does in LABEL, ENV, COPY, WORKDIR). */
export const substitute = (text: string, values: Record<string, string>): string =>
  text.replace(/\$\{(\w+)\}|\$(\w+)/g, (_, braced: string | undefined, bare: string | undefined) => values[braced ?? bare!] ?? '');

/**
 * A `.dockerignore` as Docker reads it: each pattern is matched against the path relative to
 * the context (`*` and `?` within one path segment, `**` across segments) and excludes what it
 * matches and everything below it; a later `!pattern` lets a path back in.
 */
export function dockerignore(text: string): (relativePath: string) => boolean {
  const rules = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const include = line.startsWith('!');
      const pattern = line.replace(/^!/, '').replace(/^\/+/, '').replace(/\/+$/, '');
      const source = pattern
        .split(/(\*\*\/?|\*|\?)/)
        .map((part) => (part.startsWith('**') ? '(?:.*/)?' : part === '*' ? '[^/]*' : part === '?' ? '[^/]' : part.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
        .join('');
      return { include, regex: new RegExp(`^${source}(?:/.*)?$`) };
    });
  return (relativePath) => {
    let ignored = false;
    for (const rule of rules) if (rule.regex.test(relativePath)) ignored = !rule.include;
    return ignored;
  };
}
