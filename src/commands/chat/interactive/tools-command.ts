/**
 * /tools in the session: `/tools` lists the tools offered to the model (and which run without
 * asking), `/tools add NAME|NAME.TOOL…` offers more, `/tools remove NAME|NAME.TOOL…` fewer. A
 * server added is started then; one no longer offered is stopped. What the change could not do
 * (a server that will not start, a tool its server does not have) is said, and nothing changes.
 */
import { withNames, withoutNames } from '../../../chat/tool-runner.js';
import { allowRuleText, parseToolNames, toolNameText, type ToolName } from '../../../core/names.js';
import { neutraliseForTerminal } from '../../../core/terminal-text.js';
import { say, type SessionState } from './session-state.js';

const USAGE = 'usage: /tools, /tools add NAME|NAME.TOOL, /tools remove NAME|NAME.TOOL';

export async function toolsCommand(state: SessionState, arg: string): Promise<void> {
  const [verb = '', ...words] = arg.trim().split(/\s+/);
  if (verb === '') return listTools(state);
  if (verb !== 'add' && verb !== 'remove') return say(state, USAGE);
  let names: ToolName[];
  try {
    names = parseToolNames(words, `/tools ${verb}`);
  } catch (error) {
    return say(state, neutraliseForTerminal((error as Error).message));
  }
  if (names.length === 0) return say(state, USAGE);
  const { tools } = state;
  const before = tools.selection;
  const next = verb === 'add' ? withNames(before, names) : withoutNames(before, names, (server) => tools.toolsOf(server));
  if (sameSelection(before, next)) {
    return say(state, verb === 'add' ? `(${names.map(toolNameText).join(', ')}: offered already)` : `(${names.map(toolNameText).join(', ')}: not offered)`);
  }
  try {
    const problems = await tools.select(next, state.deps.context.signal);
    if (problems.length > 0) {
      await tools.select(before, state.deps.context.signal);
      return say(state, `${neutraliseForTerminal(problems.join('; '))}; nothing changed`);
    }
  } catch (error) {
    return say(state, `${neutraliseForTerminal((error as Error).message)}; nothing changed`);
  }
  const offered = tools.definitions.length;
  say(state, `(${offered === 0 ? 'no tools offered now' : `${offered} tool${offered === 1 ? '' : 's'} offered from the next message: /tools lists them`})`);
}

function sameSelection(a: readonly ToolName[], b: readonly ToolName[]): boolean {
  return a.length === b.length && a.every((name, index) => toolNameText(name) === toolNameText(b[index]!));
}

/** The tools offered, one a line with the first line of its description; then what runs without asking. */
function listTools(state: SessionState): void {
  const { tools } = state;
  const offered = tools.definitions;
  if (offered.length === 0) return say(state, '(no tools offered; /tools add NAME offers the tools of an MCP server, NAME.TOOL one of them)');
  const rows = offered.map((definition) => {
    const identity = tools.describe(definition.function.name)!;
    const about = (definition.function.description ?? '').trim().split('\n')[0] ?? '';
    return { name: `${identity.server}.${identity.tool}`, about: `${about}${identity.readOnly ? ' (read-only)' : ''}` };
  });
  const width = Math.max(...rows.map((row) => row.name.length));
  const lines = [`tools offered (${rows.length}):`, ...rows.map((row) => `  ${row.name.padEnd(width)}  ${row.about}`.trimEnd())];
  const unasked = [...tools.allowRules.map((rule) => `${allowRuleText(rule)} (--allow)`), ...tools.granted.map((name) => `${name} (answered "always")`)];
  lines.push(unasked.length > 0 ? `run without asking: ${unasked.join(', ')}` : 'each call is asked about before it runs');
  say(state, neutraliseForTerminal(lines.join('\n')));
}
