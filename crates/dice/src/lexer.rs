//! The common lexer (spec §2.1) and the token cursor the command parsers share.

use crate::ast::CmpOp;
use crate::error::{Found, ParseError, ParseErrorKind, Span};

/// A token of a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tok {
    /// A run of digits.
    Num(i64),
    /// A run of digits too long for i64.
    NumTooLarge,
    /// A run of `<>!=`: the operator it means, if any.
    Cmp(Option<CmpOp>),
    /// Any other character, upper-cased.
    Char(char),
}

/// A token and where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    /// The token.
    pub tok: Tok,
    /// Byte offset of its start in the input.
    pub start: u32,
    /// Byte offset just past its end.
    pub end: u32,
}

impl Token {
    /// Byte range in the input.
    pub fn span(&self) -> Span {
        self.start as usize..self.end as usize
    }
}

/// Tokens of one command; short commands (the common case) stay on the stack. Offsets are
/// u32 to keep tokens small: a line longer than 4 GiB gets saturated spans, never a panic.
pub type Tokens = smallvec::SmallVec<[Token; 12]>;

fn offset(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Splits `text` into tokens; spans are offset by `base`.
pub fn lex(text: &str, base: usize) -> Tokens {
    let mut out = Tokens::new();
    lex_into(text, base, &mut out);
    out
}

/// Appends the tokens of `text` to `out`; spans are offset by `base`.
pub fn lex_into(text: &str, base: usize, out: &mut Tokens) {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let start = i;
        let tok = if b.is_ascii_digit() {
            let mut value: Option<i64> = Some(0);
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                value = value
                    .and_then(|v| v.checked_mul(10))
                    .and_then(|v| v.checked_add(i64::from(bytes[i] - b'0')));
                i += 1;
            }
            value.map_or(Tok::NumTooLarge, Tok::Num)
        } else if matches!(b, b'<' | b'>' | b'!' | b'=') {
            while i < bytes.len() && matches!(bytes[i], b'<' | b'>' | b'!' | b'=') {
                i += 1;
            }
            Tok::Cmp(CmpOp::from_run(&text[start..i]))
        } else if b.is_ascii() {
            i += 1;
            Tok::Char(char::from(b.to_ascii_uppercase()))
        } else {
            let c = text[i..].chars().next().expect("i is on a char boundary");
            i += c.len_utf8();
            Tok::Char(upcase(c))
        };
        out.push(Token {
            tok,
            start: offset(base + start),
            end: offset(base + i),
        });
    }
}

/// Upper-cases one character as Ruby's `upcase` would when the result is one character
/// (so `ſ` becomes `S`); characters that grow when upper-cased stay as they are.
pub fn upcase(c: char) -> char {
    if c.is_ascii() {
        return c.to_ascii_uppercase();
    }
    let mut up = c.to_uppercase();
    match (up.next(), up.next()) {
        (Some(u), None) => u,
        _ => c,
    }
}

/// A position in a token list, with the helpers every command parser needs.
#[derive(Debug, Clone)]
pub struct Cursor<'t> {
    toks: &'t [Token],
    pos: usize,
    end: usize,
    depth: usize,
    operators: usize,
}

/// Deepest nesting of parentheses in an expression.
pub const MAX_NESTING: usize = 100;
/// Most operators (binary and unary) in one command.
pub const MAX_OPERATORS: usize = 1_000;

impl<'t> Cursor<'t> {
    /// A cursor at the first token; `end` is the byte offset just past the command.
    pub fn new(toks: &'t [Token], end: usize) -> Self {
        Self {
            toks,
            pos: 0,
            end,
            depth: 0,
            operators: 0,
        }
    }

    /// Enters a parenthesis opened at `span`; too deep a nesting is an error.
    pub fn enter(&mut self, span: Span) -> Result<(), Box<ParseError>> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(Box::new(ParseError {
                span,
                kind: ParseErrorKind::TooDeep { limit: MAX_NESTING },
            }));
        }
        Ok(())
    }

    /// Leaves a parenthesis.
    pub fn leave(&mut self) {
        self.depth -= 1;
    }

    /// Counts an operator at `span`; too many is an error.
    pub fn count_operator(&mut self, span: Span) -> Result<(), Box<ParseError>> {
        self.operators += 1;
        if self.operators > MAX_OPERATORS {
            return Err(Box::new(ParseError {
                span,
                kind: ParseErrorKind::TooLong {
                    limit: MAX_OPERATORS,
                },
            }));
        }
        Ok(())
    }

    /// The next token, if any.
    pub fn peek(&self) -> Option<&'t Token> {
        self.toks.get(self.pos)
    }

    /// The token after the next one.
    pub fn peek2(&self) -> Option<&'t Token> {
        self.toks.get(self.pos + 1)
    }

    /// Whether the next token is the character `c`.
    pub fn at_char(&self, c: char) -> bool {
        matches!(self.peek(), Some(Token { tok: Tok::Char(x), .. }) if *x == c)
    }

    /// Consumes the character `c` if it is next.
    pub fn eat_char(&mut self, c: char) -> bool {
        let hit = self.at_char(c);
        if hit {
            self.pos += 1;
        }
        hit
    }

    /// Consumes the characters of `word` if they are next, all or nothing.
    pub fn eat_word(&mut self, word: &str) -> bool {
        let start = self.pos;
        for c in word.chars() {
            if !self.eat_char(c) {
                self.pos = start;
                return false;
            }
        }
        true
    }

    /// Consumes and returns the next token.
    pub fn bump(&mut self) -> Option<&'t Token> {
        let t = self.toks.get(self.pos);
        if t.is_some() {
            self.pos += 1;
        }
        t
    }

    /// Whether every token has been consumed.
    pub fn at_end(&self) -> bool {
        self.pos >= self.toks.len()
    }

    /// The current position, to come back to.
    pub fn mark(&self) -> usize {
        self.pos
    }

    /// Returns to a position from [`Cursor::mark`].
    pub fn reset(&mut self, mark: usize) {
        self.pos = mark;
    }

    /// Span of the next token, or an empty span at the end.
    pub fn here(&self) -> Span {
        self.peek().map_or(self.end..self.end, Token::span)
    }

    /// An error at the next token saying what was expected.
    pub fn unexpected(&self, expected: &'static str) -> Box<ParseError> {
        Box::new(match self.peek() {
            Some(
                t @ Token {
                    tok: Tok::NumTooLarge,
                    ..
                },
            ) => ParseError {
                span: t.span(),
                kind: ParseErrorKind::NumberTooLarge,
            },
            _ => ParseError {
                span: self.here(),
                kind: ParseErrorKind::Unexpected {
                    found: self.describe_next(),
                    expected,
                },
            },
        })
    }

    /// Fails unless every token was consumed.
    pub fn finish(&self) -> Result<(), Box<ParseError>> {
        if self.at_end() {
            return Ok(());
        }
        Err(Box::new(ParseError {
            span: self.here(),
            kind: ParseErrorKind::Trailing {
                found: self.describe_next(),
            },
        }))
    }

    /// Consumes a comparison operator, if next; an operator that means nothing is an error.
    pub fn eat_cmp(&mut self) -> Result<Option<CmpOp>, Box<ParseError>> {
        match self.peek() {
            Some(Token {
                tok: Tok::Cmp(op), ..
            }) => {
                let span = self.here();
                self.pos += 1;
                match op {
                    Some(op) => Ok(Some(*op)),
                    None => Err(Box::new(ParseError {
                        span,
                        kind: ParseErrorKind::BadOperator,
                    })),
                }
            }
            _ => Ok(None),
        }
    }

    fn describe_next(&self) -> Found {
        match self.peek() {
            None => Found::End,
            Some(t) => match t.tok {
                Tok::Num(n) => Found::Number(n),
                Tok::NumTooLarge => Found::NumberTooLarge,
                Tok::Cmp(op) => Found::Operator(op),
                Tok::Char(c) => Found::Char(c),
            },
        }
    }
}
