/**
 * `/role <name>` in the session: the role's system message replaces the conversation's (that is
 * what asking for a role means), its model is used unless -m was given, and its request
 * defaults apply under the flags given (ask.ts). The conversation keeps the system message and
 * model it now has, as after /system and /model; the defaults last for this session.
 */
import { neutraliseForTerminal } from '../../../core/terminal-text.js';
import type { RoleInUse } from '../../../roles/fill-role.js';
import type { SessionState } from './session-state.js';

export interface ExplicitFlags {
  /** -m was given: it beats the role's model. */
  modelFlag: boolean;
}

export function applyRole(state: SessionState, role: RoleInUse, flags: ExplicitFlags): string {
  const changes: string[] = [];
  state.role = role;
  if (role.system !== '' && role.system !== state.session.system) {
    state.session.setSystem(role.system);
    changes.push('its system message');
  }
  if (role.model !== undefined && !flags.modelFlag && role.model !== state.model) {
    // On trial until it answers once, as after /model: a model the service refuses is undone (ask.ts).
    state.modelTrial ??= { model: state.model, conversationModel: state.session.model };
    state.model = role.model;
    state.session.setModel(role.model);
    changes.push(`model ${neutraliseForTerminal(role.model)}`);
  }
  const defaults = Object.keys(role.fields);
  if (defaults.length > 0) changes.push(`${defaults.join(', ')} unless given as flags`);
  const params = Object.keys(role.params ?? {});
  if (params.length > 0) changes.push(`sends ${neutraliseForTerminal(params.join(', '))}`);
  return `(role ${role.name}${changes.length > 0 ? `: ${changes.join('; ')}` : ''})`;
}
