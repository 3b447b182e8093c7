import { getGfe, issueGfe, markSelfPay, savedPractice, type GfeDeps } from '../gfe/good-faith-estimates';
import type { HandlersFor } from './handlers';

type GfeMethods = 'gfe.markSelfPay' | 'gfe.issue' | 'gfe.get' | 'gfe.practice';

/** Good Faith Estimates on the worklist: mark a visit self-pay, issue its GFE, read it back to print. */
export function gfeHandlers(deps: GfeDeps & { onChange(change: { collection: 'good_faith_estimates'; id: string }): void }): HandlersFor<GfeMethods> {
  return {
    'gfe.markSelfPay': async (input) => {
      const gfe = markSelfPay(deps, input);
      deps.onChange({ collection: 'good_faith_estimates', id: gfe.id });
      return gfe;
    },
    'gfe.issue': async (input) => {
      const gfe = issueGfe(deps, input);
      deps.onChange({ collection: 'good_faith_estimates', id: gfe.id });
      return gfe;
    },
    'gfe.get': async ({ id }) => getGfe(deps.db, id),
    'gfe.practice': async () => ({ practice: savedPractice(deps.db) }),
  };
}
