export type Piece<Token extends string> = { token: Token } | { literal: string };

/**
 * Splits a pattern into tokens (longest first, as listed) and literal text. Returns null when a
 * letter is not part of a token, so a typo ("DD/MM/YYY") is refused instead of typed literally,
 * and when the pattern has no token at all (it would render the same text for every value).
 */
export function tokenize<Token extends string>(pattern: string, tokens: readonly Token[]): Piece<Token>[] | null {
  const pieces: Piece<Token>[] = [];
  let literal = '';
  let index = 0;
  while (index < pattern.length) {
    const token = tokens.find((candidate) => pattern.startsWith(candidate, index));
    if (token !== undefined) {
      if (literal) pieces.push({ literal });
      literal = '';
      pieces.push({ token });
      index += token.length;
      continue;
    }
    const char = pattern[index]!;
    if (/\p{L}/u.test(char)) return null;
    literal += char;
    index += 1;
  }
  if (literal) pieces.push({ literal });
  return pieces.some((piece) => 'token' in piece) ? pieces : null;
}

/** Rebuilds a pattern with some tokens replaced, e.g. padded tokens by their unpadded forms. */
export function rebuild<Token extends string>(pieces: readonly Piece<Token>[], replace: Partial<Record<Token, Token>>): string {
  return pieces.map((piece) => ('token' in piece ? replace[piece.token] ?? piece.token : piece.literal)).join('');
}
