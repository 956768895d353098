import { inspect } from 'node:util';
import { fold } from './fold.js';
import { renderingsOf } from './format.js';
import { piecesOf, type PieceStrength } from './pieces.js';
import type { ParamKind } from './paramType.js';
import { SECRET_MASK, redactValues } from './secret.js';

/**
 * The parameters of one run, bound: every value as the text it puts on the page, together with
 * what is known about each (secret or not, its declared or learned type). One value passed
 * explicitly, so what a parameter is travels with it: a copy made for a URL (secrets encoded)
 * keeps it, and nothing is looked up on the side by object identity.
 */
export class BoundParams {
  private secretValuesOnce: string[] | undefined;
  private recordOnce: Readonly<Record<string, string>> | undefined;
  private shownFormsOnce: string[] | undefined;
  private piecesOnce: Map<string, Map<string, PieceStrength>> | undefined;

  private constructor(
    private readonly byName: ReadonlyMap<string, string>,
    /** The names whose values are secret: typed into the page, never written anywhere. */
    readonly secretNames: ReadonlySet<string>,
    private readonly kinds: ReadonlyMap<string, ParamKind>,
  ) {}

  /** Binds `values` as they are (no validation: that is `bindParams`'s); for tests and internal copies. */
  static of(values: Readonly<Record<string, string>>, meta: { secrets?: Iterable<string>; kinds?: Readonly<Record<string, ParamKind>> } = {}): BoundParams {
    const byName = new Map(Object.entries(values));
    const secrets = new Set([...(meta.secrets ?? [])].filter((name) => byName.has(name)));
    const kinds = new Map(Object.entries(meta.kinds ?? {}).filter(([name]) => byName.has(name)));
    return new BoundParams(byName, secrets, kinds);
  }

  static readonly none: BoundParams = BoundParams.of({});

  /** The value of `name`, or undefined when it is not bound (never an inherited property). */
  get(name: string): string | undefined {
    return this.byName.get(name);
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  get size(): number {
    return this.byName.size;
  }

  /** Every name, in the order given. */
  names(): string[] {
    return [...this.byName.keys()];
  }

  /** Every name and value, in the order given. */
  entries(): [string, string][] {
    return [...this.byName];
  }

  /** Every non-secret name and value: what may be templated, hashed, shown or stored. */
  plainEntries(): [string, string][] {
    return this.entries().filter(([name]) => !this.secretNames.has(name));
  }

  isSecret(name: string): boolean {
    return this.secretNames.has(name);
  }

  get hasSecrets(): boolean {
    return this.secretNames.size > 0;
  }

  /** The declared (or stored) type of a parameter, if any: it limits which renderings of its value are looked for. */
  kind(name: string): ParamKind | undefined {
    return this.kinds.get(name);
  }

  /** The non-empty values of the secret parameters, longest first (so a longer one is hidden whole). */
  secretValues(): readonly string[] {
    this.secretValuesOnce ??= [...new Set([...this.secretNames].map((name) => this.byName.get(name) ?? '').filter((value) => value !== ''))].sort((a, b) => b.length - a.length);
    return this.secretValuesOnce;
  }

  /**
   * Every text a page may show for the non-secret values: each value as given and its sure
   * renderings (1990-04-01 shown as 04/01/1990; 20:04 as 8:04 PM). The visual check masks where
   * these stand, so a new value in any of its forms is not a false divergence. Asked on every
   * visual check of a run, so computed once.
   */
  shownForms(): readonly string[] {
    if (this.shownFormsOnce) return this.shownFormsOnce;
    const forms = new Set<string>();
    for (const [name, value] of this.plainEntries()) {
      if (value.trim() === '') continue;
      forms.add(value);
      for (const rendering of renderingsOf(value, this.kind(name))) {
        if (rendering.inference.kind !== 'none') forms.add(rendering.text);
      }
    }
    this.shownFormsOnce = [...forms];
    return this.shownFormsOnce;
  }

  /**
   * The non-secret parameters of which `text` is one piece on its own (see piecesOf): the 11, the
   * October or the 2011 of a date 2011-10-11; the PM of 8:04 PM; the 555 of (555) 123-4567. A
   * field, option or button holding only such a piece was filled from part of the value in a way no
   * template states (a date split into month, day and year fields): replaying it with another value
   * would keep the old piece.
   */
  piecesNamed(text: string): { name: string; strength: PieceStrength }[] {
    const folded = fold(text);
    if (folded === '' || folded.includes(' ')) return [];
    this.piecesOnce ??= new Map(this.plainEntries().map(([name, value]) => [name, piecesOf(value, this.kind(name))]));
    return [...this.piecesOnce].flatMap(([name, pieces]) => {
      const strength = pieces.get(folded);
      return strength ? [{ name, strength }] : [];
    });
  }

  /**
   * The values as a plain record, secrets in plain text: for user code that acts with them (a
   * tool's function, a custom check's capture). Frozen, so user code cannot change the run's values.
   */
  toRecord(): Readonly<Record<string, string>> {
    this.recordOnce ??= Object.freeze(Object.fromEntries(this.byName));
    return this.recordOnce;
  }

  /** The values as an agent, a log or a result may see them: secrets shown as the mask. */
  masked(): Record<string, string> {
    return Object.fromEntries(this.entries().map(([name, value]) => [name, this.secretNames.has(name) ? SECRET_MASK : value]));
  }

  /**
   * The values as a run's record keeps them for its report: `masked()`, and a secret's value that
   * stands inside another value (a PIN inside a note) redacted there too.
   */
  shown(): Record<string, string> {
    const secrets = this.secretValues();
    return Object.fromEntries(this.entries().map(([name, value]) => [name, this.secretNames.has(name) ? SECRET_MASK : redactValues(value, secrets)]));
  }

  /** Printed or JSON-encoded (a log line, an error's details), secrets show only as the mask. */
  toJSON(): Record<string, string> {
    return this.masked();
  }

  [inspect.custom](): string {
    return `BoundParams ${inspect(this.masked())}`;
  }

  /** The same parameters (secret and typed as before) with some values written another way: a URL's encoding. */
  mapValues(map: (value: string, name: string) => string): BoundParams {
    return new BoundParams(new Map(this.entries().map(([name, value]) => [name, map(value, name)])), this.secretNames, this.kinds);
  }
}
