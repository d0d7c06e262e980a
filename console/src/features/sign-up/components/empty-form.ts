import type { z } from 'zod';

/**
 * A registration form's starting values: every field of its rule blank, and the consent box
 * unticked (the rule accepts only a ticked one, so an untouched form cannot be sent).
 */
export const emptyForm = <Rule extends z.ZodObject>(rule: Rule) =>
  ({
    ...Object.fromEntries(Object.keys(rule.shape).map((field) => [field, ''])),
    acceptTerms: false,
  }) as unknown as z.input<Rule>;
