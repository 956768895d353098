/**
 * The library catalogue: a three-page legacy flow built from what real third-party pages do and
 * the other apps do not. Fields known only by a row header, a placeholder or an id, under opaque
 * names dealt out per load; rows that trade places on every load; a field that moves a few pixels
 * on every load; identical "Assign" buttons told apart only by their row; icon-only buttons, one
 * of them destructive; a condition (a progress of at least 60%) that sits away from its target
 * (Stop) and arrives at a different time on every load; a label that appears late.
 *
 * Where each perturbation applies (on every load while it is set): slowRender, liveClock,
 * rotatingBanner, layoutShift, theme: every page; popupOnLoad: page 1; popupOnFocus: pages 1 and
 * 3 (the pages with text fields); renamedRowHeader: page 1; shuffledIcons: page 2;
 * progressJumps, requiredField, confirmDialog: page 3.
 */
import type { BenchAppSpec, PerturbationName } from '../contract.js';
import { catalogAgent } from './agent.js';
import { catalogBaseline } from './baseline.js';
import { catalogParams, catalogValueCells, verifyCatalog } from './params.js';
import { startCatalogApp } from './server.js';

/**
 * renamedLabel and swappedButtons are left out: renamedRowHeader and shuffledIcons are this app's
 * forms of them (its fields have no labels, its toolbar buttons no text).
 */
const CATALOG_PERTURBATIONS: readonly PerturbationName[] = [
  'slowRender',
  'liveClock',
  'rotatingBanner',
  'layoutShift',
  'popupOnLoad',
  'popupOnFocus',
  'requiredField',
  'confirmDialog',
  'theme',
  'renamedRowHeader',
  'shuffledIcons',
  'progressJumps',
];

export const catalogSpec: BenchAppSpec = {
  name: 'catalog',
  task: 'Catalogue "{{title}}" by {{author}} on shelf {{shelf}}, copy {{copy}}',
  // Given as plain text with its values in it, as a user writes it: one key for every book.
  taskText: (params) => `Catalogue "${String(params.title)}" by ${String(params.author)} on shelf ${String(params.shelf)}, copy ${String(params.copy)}`,
  valueCells: catalogValueCells,
  perturbations: CATALOG_PERTURBATIONS,
  start: () => startCatalogApp(),
  params: catalogParams,
  agent: catalogAgent,
  baseline: catalogBaseline,
  verify: verifyCatalog,
};
