//! Signed modifiers and fixed numbers in a system's own command text, shared by the
//! systems whose commands write them the same way (Four Card's `FC+2-1>=8`, LotR's
//! `LOTR+7>=15`): `+2-1` sums its terms, `8` or `-3+2` is a fixed value. Every term's
//! digits are bounded (`max_digits`) and the sum is checked, so no input overflows.

use taku_dice::EvalError;

/// `([+-]\d+)*` summed (the empty text is 0); `None` if the text is not that.
pub fn modifiers(text: &str, max_digits: usize) -> Result<Option<i64>, EvalError> {
    let mut total: i64 = 0;
    let mut rest = text;
    while !rest.is_empty() {
        let sign = match rest.as_bytes()[0] {
            b'+' => 1,
            b'-' => -1,
            _ => return Ok(None),
        };
        rest = &rest[1..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return Ok(None);
        }
        let n = number(&rest[..digits], max_digits)?;
        total = total.checked_add(sign * n).ok_or(EvalError::Overflow)?;
        rest = &rest[digits..];
    }
    Ok(Some(total))
}

/// `-?\d+([+-]\d+)*`: a fixed value (a TN, a difficulty); `None` if the text is not that.
pub fn fixed(text: &str, max_digits: usize) -> Result<Option<i64>, EvalError> {
    let digits_first = text
        .strip_prefix('-')
        .unwrap_or(text)
        .starts_with(|c: char| c.is_ascii_digit());
    if !digits_first {
        return Ok(None);
    }
    if text.starts_with('-') {
        modifiers(text, max_digits)
    } else {
        modifiers(&format!("+{text}"), max_digits)
    }
}

fn number(digits: &str, max_digits: usize) -> Result<i64, EvalError> {
    if digits.len() > max_digits.min(18) {
        return Err(EvalError::Overflow);
    }
    digits.parse().map_err(|_| EvalError::Overflow)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_terms_and_reads_fixed_values() {
        assert_eq!(modifiers("", 12).ok(), Some(Some(0)));
        assert_eq!(modifiers("+7", 12).ok(), Some(Some(7)));
        assert_eq!(modifiers("+2-5+1", 12).ok(), Some(Some(-2)));
        assert_eq!(modifiers("2", 12).ok(), Some(None));
        assert_eq!(modifiers("+", 12).ok(), Some(None));
        assert_eq!(modifiers("+2x", 12).ok(), Some(None));
        assert_eq!(fixed("15", 12).ok(), Some(Some(15)));
        assert_eq!(fixed("-3+2", 12).ok(), Some(Some(-1)));
        assert_eq!(fixed("+3", 12).ok(), Some(None));
        assert_eq!(fixed("x", 12).ok(), Some(None));
    }

    #[test]
    fn long_numbers_are_an_overflow_not_a_panic() {
        assert!(modifiers("+1234567890123", 12).is_err());
        assert_eq!(
            modifiers("+123456789012", 12).ok(),
            Some(Some(123_456_789_012))
        );
        // Eleven terms of 10^18 − 1 pass the digit bound and overflow the sum.
        let many = "+999999999999999999".repeat(11);
        assert!(modifiers(&many, 30).is_err());
        assert!(fixed("99999999999999999999", 15).is_err());
    }
}
