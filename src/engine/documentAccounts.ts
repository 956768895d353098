import type { Page } from 'playwright';
import { navigationWatch } from '../checks/settle.js';
import type { TrajectoryNode } from '../trajectory/trajectoryNode.js';

/** One window's account of the documents it loaded (see DocumentAccounts). */
type Account = {
  /**
   * Documents the page had committed when the last agent step began to act. A cached step does not
   * move it: a load since the agent last acted counts as one during the cached step, which only
   * ever withholds the allowance for a late load (stricter, see stepDone).
   */
  atStepStart: number;
  /** ... and when it ended: what an agent step records (see NodeState.navigated). */
  atStepEnd: number;
  /**
   * Documents accounted for: by a recorded step that loaded one, a step recorded after one, or the
   * agent looking at the page. A load beyond them is one the replay cannot explain (see preCheck).
   */
  accounted: number;
  /** Steps done since the last accounted document: with none, no load can have lost anything. */
  stepsSince: number;
};

/**
 * Which documents the run's window loaded, and which of them a recorded step explains. A load no
 * step explains may have wiped what the steps before entered (a page that reloaded itself, a
 * session that bounced): a step recorded with no load before it is then not replayed. Each window
 * keeps its own account: a page that reloaded while a window it opened was in front has still
 * lost its entries when the run comes back to it.
 */
export class DocumentAccounts {
  private now: Account;
  private readonly others = new Map<Page, Account>();

  constructor(private page: Page) {
    this.now = freshAccount(page);
  }

  /** The run begins: what the page has loaded so far is its own. */
  begin(): void {
    this.now = freshAccount(this.page);
  }

  /** The run moved to `next`: this window's account is kept for its return, and `next`'s taken up. */
  switchTo(next: Page): void {
    this.others.set(this.page, this.now);
    // A window seen for the first time starts from what it has loaded so far (its first document).
    this.now = this.others.get(next) ?? freshAccount(next);
    this.page = next;
  }

  /**
   * New documents the page loaded (or is loading) that no recorded step accounts for. A navigation
   * under way counts: the load that wipes the form is already coming.
   */
  unexplained(): number {
    // Nothing entered since the last accounted document: a load cannot have lost anything.
    if (this.now.stepsSince === 0) return 0;
    const watch = navigationWatch(this.page);
    return Math.max(0, watch.documentCount - this.now.accounted + (watch.navigating ? 1 : 0));
  }

  /** Documents up to `documents` are explained (the page as it is now, when not given); the steps entered since start counting again. */
  account(documents = navigationWatch(this.page).documentCount): void {
    this.now.accounted = documents;
    this.now.stepsSince = 0;
  }

  /** An agent's step begins to act: whether a document loaded since the last step ended (while the agent thought). */
  agentStepStarts(): { loadedBefore: boolean } {
    const count = navigationWatch(this.page).documentCount;
    const loadedBefore = count !== this.now.atStepEnd;
    this.now.atStepStart = count;
    return { loadedBefore };
  }

  /** Whether a document loaded since the last agent step began to act. */
  loadedDuringStep(): boolean {
    return navigationWatch(this.page).documentCount !== this.now.atStepStart;
  }

  /**
   * A step is done at `node`. A step recorded with no load leaves a load during it unexplained; one
   * that loaded (or is not known to have) explains it, and the load it made when recorded may still
   * be on its way (a redirect after the page went quiet): one more document is its own, not a surprise.
   */
  stepDone(node: TrajectoryNode): void {
    const loadedDuring = this.loadedDuringStep();
    this.now.atStepEnd = navigationWatch(this.page).documentCount;
    this.now.stepsSince++;
    if (node.state.navigated !== false) this.account(this.now.atStepEnd + (node.state.navigated === true && !loadedDuring ? 1 : 0));
  }
}

function freshAccount(page: Page): Account {
  const count = navigationWatch(page).documentCount;
  return { atStepStart: count, atStepEnd: count, accounted: count, stepsSince: 0 };
}
