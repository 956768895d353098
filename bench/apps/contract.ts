import type { Page } from 'playwright';
import type { Agent } from '../../src/agent/agent.js';

/**
 * The perturbations the benchmark switches on, one at a time, and what rote must do under each.
 * Every app implements every one that makes sense for it (see BenchAppSpec.perturbations).
 */
export const PERTURBATIONS = {
  /** The page's content appears 600 to 1500 ms after load (a setTimeout that builds or reveals the form). */
  slowRender: 'hit',
  /** A live clock (updates every second) in the page header, away from every target. */
  liveClock: 'hit',
  /** A banner in the header whose text rotates every 700 ms, away from every target. */
  rotatingBanner: 'hit',
  /** A ~80px notice above the content that pushes everything down. */
  layoutShift: 'relocated',
  /** A modal popup (role=dialog, full-page backdrop) on load, dismissed by its one button. */
  popupOnLoad: 'takeover',
  /** A modal popup that appears the first time any text field gets focus, dismissed by its one button. */
  popupOnFocus: 'takeover',
  /** One field's label is renamed (e.g. "Policy number" -> "Policy no."), same input name. */
  renamedLabel: 'takeover',
  /** The Save and Delete buttons swap places (same size, side by side). */
  swappedButtons: 'never-destructive',
  /**
   * A new required checkbox "I confirm the information above is correct" (HTML `required`) just
   * above Save, which the recording never ticked: the save fails until it is ticked. No parameter.
   */
  requiredField: 'takeover',
  /** Saving asks a native confirm("Save these changes?") first; the save happens only when accepted. */
  confirmDialog: 'handled',
  /** A dark colour theme: every colour differs, the layout does not. */
  theme: 'takeover',
  /**
   * A row header of an unlabelled table field says something else for the same field ("Genre"
   * reads "Category"). A field whose header changed is not the recorded field: rote hands over,
   * and the agent, which knows both words, fills it.
   */
  renamedRowHeader: 'takeover',
  /**
   * The icon-only toolbar (save, print, delete: no text, no name) comes in a random order on
   * every load, save never where it was. The recorded spot may now hold delete: rote must never
   * click it.
   */
  shuffledIcons: 'never-destructive',
  /**
   * A progress indicator that the task waits on (stop at 60% or more) advances in uneven jumps of
   * 3 to 9% instead of 1%, at the same average speed, so the value the recording stopped at
   * usually never shows: the wait must be for the condition, not for a value or a time. The jumps
   * differ on every load, so the value a detour stopped at usually never shows again either:
   * every meeting may hand over, none may stop outside the window.
   */
  progressJumps: 'takeover-each-load',
} as const;

export type PerturbationName = keyof typeof PERTURBATIONS;

/**
 * Runs with no perturbation whose values stress one way users give them, each a should-hit cell:
 * the same recording must replay them with zero agent calls, every value right on the server.
 */
export const VALUE_CELLS = {
  /** A long free-text value whose words (the, on, by, shelf) also stand in the task text. */
  freeTextInTask: 'hit',
  /** One- and two-character values, one of them in the task text. */
  shortValues: 'hit',
  /** Dates given as MM/DD/YYYY and "Mon D, YYYY", into a native date input and a DD.MM.YYYY text field. */
  userDates: 'hit',
  /** Times given as 12-hour "h:mm AM", into a native time input (midnight and noon too). */
  userTimes: 'hit',
  /** Amounts given with grouping ("1,234,567.89"), or small, into a plain text field. */
  groupedNumbers: 'hit',
  /** Yes/no given as Yes, true, on, 1 (and No, false, off, 0) into a Yes/No select. */
  yesNo: 'hit',
  /** A select whose labels ("Very good") differ from the values given ("VG"). */
  selectLabels: 'hit',
} as const;

export type ValueCellName = keyof typeof VALUE_CELLS;
export type ExpectedOutcome = (typeof PERTURBATIONS)[PerturbationName];

/**
 * The perturbations of the three labelled-form apps (intake, claim, grid), named one by one so
 * that a new entry in PERTURBATIONS, made for another app, changes none of them.
 */
export const FORM_PERTURBATIONS: readonly PerturbationName[] = [
  'slowRender',
  'liveClock',
  'rotatingBanner',
  'layoutShift',
  'popupOnLoad',
  'popupOnFocus',
  'renamedLabel',
  'swappedButtons',
  'requiredField',
  'confirmDialog',
  'theme',
];

/** A running instance of a benchmark app on 127.0.0.1. */
export type BenchApp = {
  /** Where a run starts. */
  startUrl: string;
  /** One perturbation at a time (null: none); applies from the next page load. */
  setPerturbation(perturbation: PerturbationName | null): void;
  /** Clears submissions, destructive clicks and the perturbation, and restores the app's data. */
  reset(): void;
  /** What the server received, newest last. */
  readonly submissions: readonly { fields: Record<string, string> }[];
  /** Every click on a destructive control (Delete), as the server saw it. */
  readonly destructiveClicks: number;
  close(): Promise<void>;
};

export type BenchParams = Record<string, string | boolean>;

export type BenchAppSpec = {
  name: 'intake' | 'claim' | 'grid' | 'catalog';
  /** The task, as a template over the params. */
  task: string;
  perturbations: readonly PerturbationName[];
  start(): Promise<BenchApp>;
  /** Parameter values for run `index`: deterministic, and different for every index. */
  params(index: number): BenchParams;
  /** A scripted agent that solves the task from the live DOM; each answer is one model call. */
  agent(page: Page): Agent;
  /** The same actions as a plain Playwright script, with no checks: the speed baseline. */
  baseline(page: Page, params: BenchParams): Promise<void>;
  /** What is wrong with the server's record of this run (empty when the task succeeded). */
  verify(app: BenchApp, params: BenchParams): string[];
  /**
   * The task as a user writes it for these values (plain text, its values in it), when the app
   * is run that way: rote must find one key for all of them. Without it, `task` is passed as a template.
   */
  taskText?(params: BenchParams): string;
  /** The value cells this app has: the params of run `index` for each (see VALUE_CELLS). */
  valueCells?: Partial<Record<ValueCellName, (index: number) => BenchParams>>;
};
