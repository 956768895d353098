import { RoteError } from '../errors/roteError.js';

/** The parameter types rote knows. A closed union: every switch over it is exhaustive. */
export const PARAM_KINDS = ['string', 'number', 'integer', 'boolean', 'date', 'time', 'email', 'phone', 'enum', 'money', 'secret'] as const;
export type ParamKind = (typeof PARAM_KINDS)[number];

/**
 * A parameter's declared type as stored with the trajectory: plain JSON, so a later run (or an
 * exported recording) validates new values the same way without the caller's code.
 */
export type ParamSpec = {
  type: ParamKind;
  /** Allowed values of an enum. */
  options?: string[];
  /** May be left out; `default` is then used when given. */
  optional?: boolean;
  default?: string | number | boolean;
  /** Not declared by the caller: inferred from how the recording used the value (a date typed as 04/01/1990). */
  inferred?: boolean;
  /**
   * How the recording was given this value, when not canonically: `date:MM/DD/YYYY`,
   * `time:h:mm A`, `number:#,##0.##`. Later values are read that way (or canonically) and kept as
   * given; the recorded steps render them the way each field took them.
   */
  given?: string;
};

/**
 * A parameter type under construction: `param.date()`, `param.enum(['CA', 'NY']).optional()`,
 * `param.integer().default(1)`. Immutable, like zod's builders: each call returns a new one.
 */
export class ParamType {
  private constructor(readonly spec: ParamSpec) {}

  /** @internal */
  static of(spec: ParamSpec): ParamType {
    return new ParamType(Object.freeze({ ...spec }));
  }

  /** The parameter may be left out. */
  optional(): ParamType {
    return ParamType.of({ ...this.spec, optional: true });
  }

  /** The value used when the parameter is left out (makes it optional). */
  default(value: string | number | boolean): ParamType {
    return ParamType.of({ ...this.spec, optional: true, default: value });
  }
}

/** Builders for a run's `schema` option. */
export const param = {
  string: () => ParamType.of({ type: 'string' }),
  number: () => ParamType.of({ type: 'number' }),
  integer: () => ParamType.of({ type: 'integer' }),
  boolean: () => ParamType.of({ type: 'boolean' }),
  /** An ISO date, `YYYY-MM-DD`; typed on the page in whatever format the recording used. */
  date: () => ParamType.of({ type: 'date' }),
  /** A 24-hour time, `HH:MM` or `HH:MM:SS`; typed as the recording did (8:04 PM). */
  time: () => ParamType.of({ type: 'time' }),
  email: () => ParamType.of({ type: 'email' }),
  /** 7 to 15 digits, with any of `+ ( ) - . /` and spaces between. */
  phone: () => ParamType.of({ type: 'phone' }),
  /** One of `options` (case and punctuation aside; the option's own spelling is what is bound). */
  enum: (options: readonly string[]) => {
    if (!Array.isArray(options) || options.length === 0 || !options.every((option) => typeof option === 'string' && option !== '')) {
      throw new RoteError('invalid-argument', `param.enum(options): options must be a non-empty array of non-empty strings, got ${JSON.stringify(options)}`);
    }
    return ParamType.of({ type: 'enum', options: [...options] });
  },
  /** An amount: a number, or a decimal string such as "1234.50". */
  money: () => ParamType.of({ type: 'money' }),
  /** Never written anywhere; pass the value as `secret('...')` or as a plain string. */
  secret: () => ParamType.of({ type: 'secret' }),
} as const;

/** What a caller may give per parameter in `schema`: a builder, a type name, or a stored spec. */
export type ParamSchemaEntry = ParamType | ParamKind | ParamSpec;
export type ParamSchemaInput = Record<string, ParamSchemaEntry>;
export type ParamSchema = Record<string, ParamSpec>;
