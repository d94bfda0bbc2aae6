/** Blanks in a role's text: finding, filling, --var parsing, the role-level checks. */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.js';
import { fillRole, promptWithRole } from '../../src/roles/fill-role.js';
import type { Role } from '../../src/roles/role-file.js';
import { blanksOf, fillBlanks, parseVars } from '../../src/roles/template.js';

const role = (system: string, prompt?: string): Role => ({ name: 'r', system, model: undefined, fields: {}, ...(prompt === undefined ? {} : { prompt }) });
const never = () => new UsageError('missing');

describe('blanksOf and fillBlanks', () => {
  it('finds {{name}} and {{name:default}} once each, in order, spaces allowed inside the braces', () => {
    expect(blanksOf('Speak {{ lang }} to {{who:everyone}}.', 'In {{lang:French}}: {{input}}')).toEqual([
      { name: 'lang', defaultValue: 'French' },
      { name: 'who', defaultValue: 'everyone' },
      { name: 'input' },
    ]);
  });

  it('leaves what is not a blank as written: empty braces, a space inside a name, single braces', () => {
    const text = 'a {{}} b {{two words}} c {x} d {{ok}}';
    expect(blanksOf(text)).toEqual([{ name: 'ok' }]);
    expect(fillBlanks(text, { ok: 'yes' }, never)).toBe('a {{}} b {{two words}} c {x} d yes');
  });

  it('fills with the value, else the default (empty allowed); a value is never read for blanks again', () => {
    expect(fillBlanks('{{a}}|{{b:}}|{{c:dflt}}', { a: '{{c}}' }, never)).toBe('{{c}}||dflt');
  });

  it('a blank with neither value nor default is the error the caller makes', () => {
    expect(() => fillBlanks('{{x}}', {}, (name) => new UsageError(`no ${name}`))).toThrow('no x');
  });
});

describe('parseVars', () => {
  it('takes NAME=VALUE as written (never JSON), = inside the value kept', () => {
    expect(parseVars(['lang=French', 'n=2', 'eq=a=b', 'empty='])).toEqual({ lang: 'French', n: '2', eq: 'a=b', empty: '' });
  });
  it.each([['no =', 'lang'], ['a bad name', '1x=2'], ['input (the prompt itself)', 'input=x']])('refuses %s', (_what, flag) => {
    expect(() => parseVars([flag])).toThrow(UsageError);
  });
  it('refuses a name given twice', () => {
    expect(() => parseVars(['a=1', 'a=2'])).toThrow('--var a is given twice');
  });
});

describe('fillRole and promptWithRole', () => {
  const translate = role('You translate into {{lang}}, {{tone:plainly}}.', 'Translate:\n\n{{input}}');

  it('fills the system message; names the blank left unfilled and a var the role does not have', () => {
    expect(fillRole(translate, { lang: 'German' })!.system).toBe('You translate into German, plainly.');
    expect(() => fillRole(translate, {})).toThrow('the role "r" has a blank {{lang}} with no default: give --var lang=…');
    expect(() => fillRole(translate, { lang: 'x', colour: 'red' })).toThrow('--var colour: the role "r" has no blank {{colour}} (its blanks: lang, tone (default "plainly"))');
    expect(fillRole(translate, { lang: 'x', colour: 'red' }, 'ignore')!.system).toBe('You translate into x, plainly.');
  });

  it('refuses --var without a role, and {{input}} in a system message', () => {
    expect(() => fillRole(undefined, { lang: 'x' })).toThrow("give --role too");
    expect(fillRole(undefined, {})).toBeUndefined();
    expect(() => fillRole(role('Echo {{input}}'), {})).toThrow('{{input}} can only be in its prompt');
  });

  it('puts the prompt into {{input}}, or after a template without one; no template: the prompt as is', () => {
    expect(promptWithRole(fillRole(translate, { lang: 'x' }), 'good morning')).toBe('Translate:\n\ngood morning');
    expect(promptWithRole(fillRole(role('s', 'Be {{mood:kind}}.'), {}), 'hi')).toBe('Be kind.\n\nhi');
    expect(promptWithRole(fillRole(role('s', 'Be {{mood:kind}}.'), {}), '')).toBe('Be kind.');
    expect(promptWithRole(fillRole(role('s'), {}), 'hi')).toBe('hi');
    expect(promptWithRole(undefined, 'hi')).toBe('hi');
  });

  it("fills the template's blanks with the vars the role was filled with; a value or the prompt is never read for blanks", () => {
    const used = fillRole(role('s', 'In {{lang}}, {{mood:kindly}}: {{input}}'), { lang: '{{input}}', mood: 'plainly' });
    expect(used!.vars).toEqual({ lang: '{{input}}', mood: 'plainly' });
    expect(promptWithRole(used, 'hi {{lang}}')).toBe('In {{input}}, plainly: hi {{lang}}');
  });

  it('a template needing the prompt, without one, says how to give it', () => {
    expect(() => promptWithRole(fillRole(translate, { lang: 'x' }), '')).toThrow('give it as words or pipe it in');
    expect(promptWithRole(fillRole(role('s', 'Say {{input:hello}}'), {}), '')).toBe('Say hello');
  });
});
