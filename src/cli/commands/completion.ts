// `flotilla completion bash|zsh|fish`: shell completion for every verb, sub-verb and flag, generated
// from the command tree itself (so a new verb completes without anyone touching this file).
import { type Command, Command as Cmd } from "commander";
import { UsageError } from "../errors.js";

interface Node {
  path: string;
  words: string[];
}

/** Every command path ("flotilla get sources") with what may follow it: sub-verbs and flags. */
export function completionTree(root: Command): Node[] {
  const nodes: Node[] = [];
  const walk = (c: Command, path: string) => {
    const subs = c.commands.filter((s) => !(s as unknown as { _hidden?: boolean })._hidden);
    const flags = c.options.flatMap((o) => [o.long, o.short].filter((x): x is string => !!x));
    nodes.push({ path, words: [...subs.flatMap((s) => [s.name(), ...s.aliases()]), ...flags, "--help"] });
    for (const s of subs) for (const name of [s.name(), ...s.aliases()]) walk(s, `${path} ${name}`);
  };
  walk(root, root.name());
  return nodes;
}

const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

export function bashCompletion(root: Command): string {
  const nodes = completionTree(root);
  const paths = nodes.slice(1).map((n) => quote(n.path));
  return [
    "# bash completion for flotilla: source <(flotilla completion bash)",
    "_flotilla() {",
    '  local cur="${COMP_WORDS[COMP_CWORD]}" path="flotilla" words="" i',
    "  for ((i = 1; i < COMP_CWORD; i++)); do",
    '    case "$path ${COMP_WORDS[i]}" in',
    `      ${paths.join("|")}) path="$path \${COMP_WORDS[i]}" ;;`,
    "    esac",
    "  done",
    '  case "$path" in',
    ...nodes.map((n) => `    ${quote(n.path)}) words=${quote(n.words.join(" "))} ;;`),
    "  esac",
    '  COMPREPLY=($(compgen -W "$words" -- "$cur"))',
    "}",
    "complete -F _flotilla flotilla",
    "",
  ].join("\n");
}

export function zshCompletion(root: Command): string {
  return `#compdef flotilla\n# zsh completion for flotilla: source <(flotilla completion zsh)\nautoload -U +X bashcompinit && bashcompinit\n${bashCompletion(root)}`;
}

export function fishCompletion(root: Command): string {
  const nodes = completionTree(root);
  const lines = [
    "# fish completion for flotilla: flotilla completion fish | source",
    "function __flotilla_path",
    "  set -l tokens (commandline -opc)",
    "  set -l path flotilla",
    "  for t in $tokens[2..-1]",
    '    switch "$path $t"',
    ...nodes.slice(1).map((n) => `      case ${quote(n.path)}\n        set path "$path $t"`),
    "    end",
    "  end",
    "  echo $path",
    "end",
  ];
  for (const n of nodes) {
    const subs = n.words.filter((w) => !w.startsWith("-"));
    const flags = n.words.filter((w) => w.startsWith("--")).map((w) => w.slice(2));
    if (subs.length)
      lines.push(`complete -c flotilla -f -n "test (__flotilla_path) = ${quote(n.path)}" -a ${quote(subs.join(" "))}`);
    for (const flag of flags)
      lines.push(`complete -c flotilla -n "test (__flotilla_path) = ${quote(n.path)}" -l ${flag}`);
  }
  return `${lines.join("\n")}\n`;
}

export function completionCommand(root: () => Command): Cmd {
  return new Cmd("completion")
    .description("Generate the completion script for bash, zsh or fish")
    .argument("<shell>", "bash, zsh or fish")
    .addHelpText(
      "after",
      '\nExamples:\n  source <(flotilla completion bash)\n  flotilla completion zsh > "${fpath[1]}/_flotilla"\n  flotilla completion fish | source',
    )
    .action((shell: string) => {
      const scripts: Record<string, (c: Command) => string> = {
        bash: bashCompletion,
        zsh: zshCompletion,
        fish: fishCompletion,
      };
      const make = scripts[shell];
      if (!make) throw new UsageError(`unsupported shell "${shell}": use bash, zsh or fish`);
      process.stdout.write(make(root()));
    });
}
