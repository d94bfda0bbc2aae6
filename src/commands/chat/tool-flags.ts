/**
 * `svc chat`'s tool flags → what the chat offers and allows: `--tools NAME|NAME.TOOL`
 * (repeatable), `--no-tools`, `--allow NAME.TOOL|NAME.*` (repeatable), `--max-steps N`. Checked
 * with the other flags, before anything is read or sent (exit 2). Without `--tools`, a role's
 * `tools` and then the profile's `tools` setting say what is offered.
 */
import { parseAllowRules, parseToolNames, type ToolName } from '../../core/names.js';
import { parseIntegerInRange } from '../../core/parse-values.js';
import type { Role } from '../../roles/role-file.js';

/** Requests for one reply while the model calls tools, unless --max-steps says otherwise. */
export const DEFAULT_MAX_STEPS = 10;

export interface ToolFlags {
  /** `--tools` given (a list), `--no-tools` ('none'), or neither (the role's or the profile's, if any). */
  names: ToolName[] | 'none' | undefined;
  /** `--allow`: tools that run without asking. */
  allow: ToolName[];
  maxSteps: number;
}

export function parseToolFlags(flags: { tools?: string[] | boolean | undefined; allow?: string[] | undefined; maxSteps?: string | undefined }): ToolFlags {
  const names = flags.tools === false ? 'none' : Array.isArray(flags.tools) ? parseToolNames(flags.tools, '--tools') : undefined;
  return {
    names,
    allow: parseAllowRules(flags.allow ?? [], '--allow'),
    maxSteps: flags.maxSteps === undefined ? DEFAULT_MAX_STEPS : parseIntegerInRange(flags.maxSteps, '--max-steps', 1, 100),
  };
}

/** The tools a chat offers: --tools, else the role's, else the profile's setting (flag > role > setting). */
export function toolSelection(flags: ToolFlags | undefined, role: Role | undefined, setting: () => string | undefined): ToolName[] {
  if (flags?.names === 'none') return [];
  if (flags?.names !== undefined) return flags.names;
  if (role?.tools !== undefined) return role.tools;
  // Read only when it decides: a broken SVC_TOOLS does not stop a chat that names its tools.
  const stored = setting();
  return stored === undefined ? [] : parseToolNames([stored], 'the tools setting');
}
