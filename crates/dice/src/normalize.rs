//! Full-width folding for players who type `２Ｄ６＞＝１０`: opt-in, never on the
//! BCDice-compatible paths (spec §1.4).

/// Text with full-width ASCII, U+3000 and common maths symbols folded to ASCII, and a map
/// from each byte offset of the folded text back to the original.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Folded {
    /// The folded text.
    pub text: String,
    /// `origin[i]` is the original byte offset of folded byte `i`; one extra entry maps the
    /// end of the text.
    origin: Vec<usize>,
}

impl Folded {
    /// The original byte offset of a folded byte offset.
    pub fn original_offset(&self, folded: usize) -> usize {
        self.origin
            .get(folded)
            .copied()
            .unwrap_or_else(|| *self.origin.last().expect("origin has an end entry"))
    }

    /// Maps a folded span back to the original text.
    pub fn original_span(&self, span: std::ops::Range<usize>) -> std::ops::Range<usize> {
        self.original_offset(span.start)..self.original_offset(span.end)
    }
}

/// What one character folds to, if anything.
fn fold_char(c: char) -> Option<&'static str> {
    const ASCII: &str = "!\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~";
    let cp = c as u32;
    if (0xFF01..=0xFF5E).contains(&cp) {
        let i = (cp - 0xFF01) as usize;
        return Some(&ASCII[i..i + 1]);
    }
    Some(match c {
        '\u{3000}' => " ",
        '×' => "*",
        '÷' => "/",
        '−' => "-",
        '≦' | '≤' => "<=",
        '≧' | '≥' => ">=",
        '≠' => "<>",
        _ => return None,
    })
}

/// Folds `input`. Text with nothing to fold is returned as is.
pub fn fold(input: &str) -> Folded {
    let mut text = String::with_capacity(input.len());
    let mut origin = Vec::with_capacity(input.len() + 1);
    for (i, c) in input.char_indices() {
        match fold_char(c) {
            Some(s) => {
                text.push_str(s);
                origin.extend(std::iter::repeat_n(i, s.len()));
            }
            None => {
                text.push(c);
                origin.extend(std::iter::repeat_n(i, c.len_utf8()));
            }
        }
    }
    origin.push(input.len());
    Folded { text, origin }
}

/// Whether `input` has anything [`fold`] would change.
pub fn needs_folding(input: &str) -> bool {
    !input.is_ascii() && input.chars().any(|c| fold_char(c).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_full_width_and_keeps_spans() {
        let f = fold("２Ｄ６＞＝１０　判定");
        assert_eq!(f.text, "2D6>=10 判定");
        // `>=` starts at folded byte 3, which was the full-width `＞` at original byte 9.
        assert_eq!(f.original_offset(3), 9);
        assert_eq!(f.original_span(0..7), 0..21);
    }

    #[test]
    fn folds_symbols() {
        assert_eq!(fold("2D6×2≧7").text, "2D6*2>=7");
        assert_eq!(fold("1D6÷2≦3").text, "1D6/2<=3");
        assert!(!needs_folding("2D6>=7 コメント"));
        assert!(needs_folding("２D6"));
    }
}
