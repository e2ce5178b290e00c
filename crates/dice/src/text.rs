//! Writing result text fast: integers without `fmt` machinery, which dominated the cost of
//! a short roll's text.

/// Appends the decimal form of `n`.
pub fn push_int(out: &mut String, n: i64) {
    if (0..100).contains(&n) {
        // Most numbers in a roll's text are one or two digits.
        let n = n as u8;
        if n >= 10 {
            out.push(char::from(b'0' + n / 10));
        }
        out.push(char::from(b'0' + n % 10));
        return;
    }
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    let mut v = n.unsigned_abs();
    while v > 0 {
        i -= 1;
        buf[i] = b'0' + (v % 10) as u8;
        v /= 10;
    }
    if n < 0 {
        out.push('-');
    }
    out.push_str(std::str::from_utf8(&buf[i..]).expect("ASCII digits"));
}

/// Appends values joined by `sep`.
pub fn push_joined(out: &mut String, values: &[i64], sep: &str) {
    for (i, &v) in values.iter().enumerate() {
        if i > 0 {
            out.push_str(sep);
        }
        push_int(out, v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_display() {
        for n in (-150..150).chain([12345, i64::MAX, i64::MIN]) {
            let mut s = String::new();
            push_int(&mut s, n);
            assert_eq!(s, n.to_string());
        }
    }
}
